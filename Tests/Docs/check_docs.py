#!/usr/bin/env python3
"""Keeps the documentation equal to the code.

    python3 Tests/Docs/check_docs.py BASE_URL GEOSERVE_BINARY

  api      every operation (method and path) of BASE_URL/openapi.json is documented in
           docs/api.md, and every route docs/api.md documents is in /openapi.json;
  options  every option of every command (from `geoserve --help`, `geoserve <command> --help`
           and so on for subcommands) is named in docs/configuration.md under that command's
           section, with its GEOSERVE_* variable, and configuration.md names no option the command
           does not take;
  pages    every page in docs/ has at most 400 lines;
  links    every relative link in README.md, CHANGELOG.md, docs/*.md and bench/NOTES.md points to
           a file that exists and, with a #fragment, to a heading of it (GitHub's anchors).

The conventions api.md and configuration.md follow are written at the top of each page. Prints
"ok <check>: ..." or "FAIL <check>: ..." lines (the form Tests/Conformance/run.sh counts), one
FAIL line per problem naming what is missing where; exits 1 when anything failed. Standard
library only.
"""

import json
import os
import re
import subprocess
import sys
import urllib.request

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
MAX_LINES = 400
METHODS = ("GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS")
ALWAYS = {"--help", "--version"}  # every command takes them; configuration.md says so once

failures = 0


def ok(check, message):
    print(f"ok {check}: {message}")


def fail(check, message):
    global failures
    failures += 1
    print(f"FAIL {check}: {message}")


def rel(path):
    return os.path.relpath(path, ROOT)


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


# --- markdown ------------------------------------------------------------------------------------

FENCE = re.compile(r"^\s*(```|~~~)")


def prose_lines(text):
    """(line number, line) of every line outside fenced code blocks."""
    fenced = False
    for number, line in enumerate(text.split("\n"), 1):
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            yield number, line


def without_code_blocks(text):
    """The text with fenced code blocks blanked (line numbers kept)."""
    keep = dict(prose_lines(text))
    return "\n".join(keep.get(n, "") for n in range(1, text.count("\n") + 2))


def headings(text):
    """(line number, level, heading text) of every ATX heading outside code blocks."""
    for number, line in prose_lines(text):
        m = re.match(r"^(#{1,6})\s+(.*?)\s*#*\s*$", line)
        if m:
            yield number, len(m.group(1)), m.group(2)


def slug(heading):
    """GitHub's anchor for a heading: the rendered text, lower-cased, without punctuation."""
    text = re.sub(r"!\[([^\]]*)\]\([^)]*\)", r"\1", heading)   # images: their alt text
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)       # links: their text
    text = re.sub(r"<[^>]+>", "", text)                         # inline HTML
    text = text.replace("`", "").replace("*", "")
    text = text.strip().lower()
    text = "".join(c for c in text if c.isalnum() or c in " -_")
    return text.replace(" ", "-")


def anchors(text):
    seen, result = {}, set()
    for _, _, heading in headings(text):
        base = slug(heading)
        n = seen.get(base, 0)
        result.add(base if n == 0 else f"{base}-{n}")
        seen[base] = n + 1
    return result


LINK = re.compile(r"(?<!\\)!?\[((?:[^\[\]]|\[[^\]]*\])*)\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)", re.S)


def links(text):
    """(line number, target) of every inline link outside code blocks and code spans."""
    prose = without_code_blocks(text)
    prose = re.sub(r"`[^`\n]*`", lambda m: " " * len(m.group(0)), prose)
    for m in LINK.finditer(prose):
        yield prose.count("\n", 0, m.start()) + 1, m.group(2)


# --- pages and links -----------------------------------------------------------------------------

def check_pages():
    docs = os.path.join(ROOT, "docs")
    pages = sorted(p for p in os.listdir(docs) if p.endswith(".md"))
    long = []
    for page in pages:
        count = read(os.path.join(docs, page)).count("\n")
        if count > MAX_LINES:
            long.append(page)
            fail("pages", f"docs/{page} has {count} lines; a page has at most {MAX_LINES} (split it)")
    if not long:
        ok("pages", f"{len(pages)} pages in docs/, none over {MAX_LINES} lines")


def check_links():
    files = ["README.md", "CHANGELOG.md", os.path.join("bench", "NOTES.md")]
    files += [os.path.join("docs", p) for p in sorted(os.listdir(os.path.join(ROOT, "docs"))) if p.endswith(".md")]
    cache, checked, bad = {}, 0, 0
    for name in files:
        path = os.path.join(ROOT, name)
        if not os.path.exists(path):
            continue
        text = read(path)
        for line, target in links(text):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I) or target.startswith("//"):
                continue  # http:, https:, mailto: — not ours to check
            checked += 1
            file_part, _, fragment = target.partition("#")
            dest = os.path.normpath(os.path.join(os.path.dirname(path), file_part)) if file_part else path
            if not os.path.exists(dest):
                bad += 1
                fail("links", f"{name}:{line}: ({target}) points to {rel(dest)}, which does not exist")
                continue
            if not fragment:
                continue
            if not dest.endswith(".md") or os.path.isdir(dest):
                bad += 1
                fail("links", f"{name}:{line}: ({target}) has an anchor on a file that is not a Markdown page")
                continue
            if dest not in cache:
                cache[dest] = anchors(read(dest))
            if fragment.lower() not in cache[dest]:
                bad += 1
                fail("links", f"{name}:{line}: ({target}): {rel(dest)} has no heading with the anchor #{fragment}")
    if not bad:
        ok("links", f"{checked} relative links in {len(files)} files resolve, anchors included")


# --- api.md against /openapi.json -----------------------------------------------------------------

ROUTE = re.compile(r"^(" + "|".join(METHODS) + r") (/\S*)$")


def template_match(template, path):
    """Does a documented path name this OpenAPI path? A whole {parameter} segment of the template
    matches any segment (so `/tiles/halls.json` names `/tiles/{layer}`); others must be equal."""
    t, p = template.strip("/").split("/"), path.strip("/").split("/")
    if len(t) != len(p):
        return False
    return all(a == b or (a.startswith("{") and a.endswith("}") and b) for a, b in zip(t, p))


def documented_routes(text):
    """Markers: the code spans `METHOD /path` a line begins with (after a heading's #, a table's |
    or a list's bullet; several separated by commas), each path exactly as OpenAPI writes it.
    Mentions: every other code span of that form (examples may carry values, a query or optional
    parts in brackets), which must name an operation that exists."""
    markers, mentions = [], []
    for number, line in prose_lines(text):
        position = re.match(r"^\s*(?:#{1,6}\s+|\|\s*|[-*]\s+)?", line).end()
        leading = set()
        while True:
            span = re.match(r"`([^`]+)`", line[position:])
            route = span and ROUTE.match(span.group(1).strip())
            if not route:
                break
            markers.append((number, route.group(1), route.group(2)))
            leading.add(position)
            position += span.end()
            separator = re.match(r"\s*,\s*", line[position:])
            if not separator:
                break
            position += separator.end()
        for m in re.finditer(r"`([^`]+)`", line):
            route = ROUTE.match(m.group(1).strip())
            if route and m.start() not in leading:
                mentions.append((number, route.group(1), re.split(r"[?\[]", route.group(2))[0]))
    return markers, mentions


def check_api(base_url):
    url = base_url.rstrip("/") + "/openapi.json"
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            spec = json.load(response)
    except Exception as error:  # noqa: BLE001 — any failure is the finding
        fail("api", f"could not read {url}: {error}")
        return
    operations = {(m.upper(), path) for path, item in spec.get("paths", {}).items()
                  for m in item if m.upper() in METHODS}
    text = read(os.path.join(ROOT, "docs", "api.md"))
    markers, mentions = documented_routes(text)
    marked = {(m, p) for _, m, p in markers}
    bad = 0
    for method, path in sorted(operations - marked, key=lambda o: (o[1], o[0])):
        bad += 1
        fail("api", f"{method} {path} is in /openapi.json but docs/api.md does not document it "
                    f"(add a line starting with `{method} {path}`, as the top of docs/api.md explains)")
    for number, method, path in markers:
        if (method, path) not in operations:
            bad += 1
            near = [f"{m} {p}" for m, p in operations if m == method and template_match(p, path)]
            hint = f" (the OpenAPI path is {near[0]})" if near else ""
            fail("api", f"docs/api.md:{number} documents {method} {path}, which /openapi.json does not have{hint}")
    mentioned = [("docs/api.md", number, method, path) for number, method, path in mentions]
    others = ["README.md"] + [os.path.join("docs", p) for p in sorted(os.listdir(os.path.join(ROOT, "docs")))
                              if p.endswith(".md") and p != "api.md"]
    for name in others:
        more_markers, more_mentions = documented_routes(read(os.path.join(ROOT, name)))
        mentioned += [(name, number, method, re.split(r"[?\[]", path)[0])
                      for number, method, path in more_markers + more_mentions]
    for name, number, method, path in mentioned:
        if not any(m == method and template_match(p, path) for m, p in operations):
            bad += 1
            fail("api", f"{name}:{number} names {method} {path}, which no operation of /openapi.json matches")
    if not bad:
        ok("api", f"the {len(operations)} operations of /openapi.json are documented in docs/api.md, "
                  f"and the {len(mentioned)} other routes named in README.md and docs/ all exist")


# --- configuration.md against --help -------------------------------------------------------------

def help_of(binary, command):
    try:
        run = subprocess.run([binary, *command, "--help"], capture_output=True, text=True, timeout=60)
    except Exception as error:  # noqa: BLE001
        return None, str(error)
    if run.returncode != 0:
        return None, (run.stderr or run.stdout).strip()[:300]
    return run.stdout, None


def parse_help(text):
    """Options (name -> environment variables in their help) and subcommands of one --help."""
    options, subcommands, section, current = {}, [], None, None
    for line in text.split("\n"):
        header = re.match(r"^([A-Z][A-Z ]*):", line)
        if header:
            section, current = header.group(1), None
            continue
        if section in (None, "OVERVIEW", "USAGE", "ARGUMENTS"):
            continue
        if section == "SUBCOMMANDS":
            m = re.match(r"^  ([a-z][a-z0-9-]*)(\s|$)", line)
            if m:
                subcommands.append(m.group(1))
            continue
        m = re.match(r"^  (?:-\w, )?(--[a-z0-9][a-z0-9-]*)(.*)$", line)
        if m:
            current = m.group(1)
            options[current] = set(re.findall(r"GEOSERVE_[A-Z0-9_]+", m.group(2)))
        elif current and line.startswith("      "):
            options[current] |= set(re.findall(r"GEOSERVE_[A-Z0-9_]+", line))
        elif not line.strip():
            current = None
    return options, subcommands


def commands_of(binary):
    """Every command path with its options; a command with subcommands is walked into."""
    result, problems, queue = {}, [], [[]]
    while queue:
        command = queue.pop(0)
        text, error = help_of(binary, command)
        if text is None:
            problems.append(f"`{' '.join(['geoserve', *command, '--help'])}` failed: {error}")
            continue
        options, subcommands = parse_help(text)
        if subcommands:
            queue.extend(command + [s] for s in subcommands)
        elif command:
            result[" ".join(command)] = {o: e for o, e in options.items() if o not in ALWAYS}
    return result, problems


OPTION = re.compile(r"(?<![\w-])(--[a-z0-9][a-z0-9-]*)")
VARIABLE = re.compile(r"GEOSERVE_[A-Z0-9_]+")


def config_sections(text):
    """The page cut at its ## headings: (heading, anchor, first line, body)."""
    lines = text.split("\n")
    starts = [(n, h) for n, level, h in headings(text) if level == 2]
    sections = []
    for i, (n, heading) in enumerate(starts):
        end = starts[i + 1][0] - 1 if i + 1 < len(starts) else len(lines)
        sections.append((heading, slug(heading), n, "\n".join(lines[n:end])))
    preamble_end = starts[0][0] - 1 if starts else len(lines)
    return "\n".join(lines[:preamble_end]), sections


def named_options(body):
    """(line offset, option) of every --option the section names, in prose and examples alike."""
    for m in OPTION.finditer(body):
        yield body.count("\n", 0, m.start()), m.group(1)


def includes(body):
    found = []
    for m in re.finditer(r"Also\s+takes\s+the\s+options\s+of\s+(.*?)(?:\.(?:\s|$)|\n\n)", body, re.S):
        found += [target.lstrip("#") for _, target in links(m.group(1)) if target.startswith("#")]
    return found


def check_options(binary):
    commands, problems = commands_of(binary)
    for problem in problems:
        fail("options", problem)
    if not commands:
        return
    page = os.path.join(ROOT, "docs", "configuration.md")
    text = read(page)
    preamble, sections = config_sections(text)
    # The bench commands, which measure, have a page of their own under the same rules.
    bench = os.path.join(ROOT, "docs", "configuration-bench.md")
    if os.path.exists(bench):
        sections += config_sections(read(bench))[1]
    by_anchor = {anchor: (heading, line, body) for heading, anchor, line, body in sections}
    command_section = {}
    for heading, anchor, line, body in sections:
        m = re.match(r"^`?geoserve ([a-z0-9 -]+?)`?$", heading.strip())
        if m:
            command_section[m.group(1)] = anchor

    def gathered(anchor, seen=()):
        """Options and variables a section names, with those of the sections it includes."""
        heading, line, body = by_anchor[anchor]
        options = {o for _, o in named_options(body)}
        variables = set(VARIABLE.findall(body))
        for target in includes(body):
            if target not in by_anchor:
                fail("options", f"docs/configuration.md, section '{heading}': 'Also takes the options of' "
                                f"links to #{target}, which is no ## section of the page")
            elif target not in seen:
                more_o, more_v = gathered(target, seen + (anchor,))
                options |= more_o
                variables |= more_v
        return options, variables

    all_options = set().union(*(set(o) for o in commands.values())) | ALWAYS
    all_variables = set().union(*(set().union(*e.values()) if e else set() for e in commands.values()))
    bad = 0
    for command, options in sorted(commands.items()):
        anchor = command_section.get(command)
        if anchor is None:
            bad += 1
            fail("options", f"geoserve {command} has no section in docs/configuration.md "
                            f"(a '## geoserve {command}' heading naming its options)")
            continue
        named, variables = gathered(anchor)
        for option, envs in sorted(options.items()):
            if option not in named:
                bad += 1
                fail("options", f"geoserve {command} {option} is not named in docs/configuration.md "
                                f"under '## geoserve {command}' (nor in a section it includes)")
            for env in sorted(envs - variables):
                bad += 1
                fail("options", f"geoserve {command} {option} is set by {env} (its --help says so), "
                                f"but docs/configuration.md does not name {env} under '## geoserve {command}'")
        for option in sorted(named - set(options) - ALWAYS):
            bad += 1
            where = _where(by_anchor, anchor, option)
            fail("options", f"docs/configuration.md names {option} for geoserve {command} ({where}), "
                            f"but `geoserve {command} --help` has no such option")
    # Shared sections that are no command's own: their options must exist somewhere, as must the
    # options named before the first section, and every variable.
    for heading, anchor, line, body in sections:
        if anchor in command_section.values():
            continue
        for offset, option in named_options(body):
            if option not in all_options:
                bad += 1
                fail("options", f"docs/configuration.md:{line + offset + 1} (section '{heading}') names "
                                f"{option}, which no command of the binary takes")
    for offset, option in named_options(preamble):
        if option not in all_options:
            bad += 1
            fail("options", f"docs/configuration.md:{offset + 1} names {option}, which no command takes")
    for number, line_text in enumerate(text.split("\n"), 1):
        for variable in VARIABLE.findall(line_text):
            if variable not in all_variables:
                bad += 1
                fail("options", f"docs/configuration.md:{number} names {variable}, which no option's --help mentions")
    if not bad:
        count = sum(len(o) for o in commands.values())
        ok("options", f"{count} options of {len(commands)} commands are documented in "
                      f"docs/configuration.md under their commands, with their variables, and nothing more")


def _where(by_anchor, anchor, option, seen=()):
    heading, line, body = by_anchor[anchor]
    for offset, named in named_options(body):
        if named == option:
            return f"line {line + offset + 1}"
    for target in includes(body):
        if target in by_anchor and target not in seen:
            found = _where(by_anchor, target, option, seen + (anchor,))
            if found:
                return f"{found}, in '{by_anchor[target][0]}', included by its section"
    return ""


def main(argv):
    if len(argv) != 3:
        print("usage: python3 Tests/Docs/check_docs.py BASE_URL GEOSERVE_BINARY\n"
              "  BASE_URL: a running geoserve (its /openapi.json is read); GEOSERVE_BINARY: the same build",
              file=sys.stderr)
        return 2
    base_url, binary = argv[1], argv[2]
    check_pages()
    check_links()
    check_api(base_url)
    check_options(binary)
    print(f"docs: {'all checks passed' if failures == 0 else f'{failures} problem(s)'}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
