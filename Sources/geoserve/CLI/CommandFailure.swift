/// A command that could not do its work although it was asked correctly: a file missing or
/// unreadable, another installation's key file, a store in the wrong state. ArgumentParser prints
/// it as `Error: …` and exits 1. `ValidationError` stays for what was asked wrongly (an option's
/// value), which exits 64 with the usage line.
struct CommandFailure: Error, CustomStringConvertible {
    let description: String

    init(_ description: String) {
        self.description = description
    }
}
