/// The pages' one style sheet, served as a file: the Content-Security-Policy allows no inline
/// style. Colours keep a contrast of at least 4.5:1 against their background.
enum PageStyle {
    static let css = #"""
    :root{--ink:#1b1b1b;--muted:#4a4a4a;--line:#c8c8c8;--panel:#f5f5f5;--accent:#0b5394;--up:#a50f15;--down:#006d2c}
    *{box-sizing:border-box}
    [hidden]{display:none!important}
    body{margin:0;font:16px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:#fff}
    .top{padding:1rem max(1.25rem,calc((100% - 72rem) / 2 + 1.25rem)) .5rem;border-bottom:1px solid var(--line)}
    h1{margin:0;font-size:1.5rem}
    h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
    main{padding:0 1.25rem 2rem;max-width:72rem;margin:0 auto}
    .caption,.small{color:var(--muted);max-width:46rem}
    .small{font-size:.875rem;margin-top:2rem}
    a{color:var(--accent)}
    .controls{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-end;margin:1rem 0}
    .controls select{font:inherit;padding:.35rem;min-height:44px;margin-left:.25rem}
    .windows{border:0;padding:0;margin:0;display:flex;gap:.25rem;flex-wrap:wrap}
    .windows legend{padding:0;margin-bottom:.25rem;font-size:.875rem;color:var(--muted)}
    .windows label{display:inline-flex;align-items:center;gap:.3rem;border:1px solid var(--line);border-radius:6px;padding:.35rem .7rem;min-height:44px;cursor:pointer}
    .windows input:focus-visible+span,.windows label:focus-within{outline:2px solid var(--accent);outline-offset:2px}
    .summary{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:1rem}
    .card{background:var(--panel);border-radius:8px;padding:.9rem 1rem;display:flex;flex-direction:column;gap:.2rem}
    .label{color:var(--muted);font-size:.875rem}
    .big{font-size:2.4rem;line-height:1.1}
    .mid{font-size:1.2rem}
    .change{font-size:.9rem;color:var(--muted)}
    .change.up{color:var(--up)}
    .change.down{color:var(--down)}
    .map-box{margin-top:1rem;display:grid;grid-template-columns:1fr 16rem;gap:1rem}
    #map{height:26rem;border:1px solid var(--line);border-radius:8px;background:#eef1f4}
    .legend{font-size:.875rem}
    .legend ul{list-style:none;padding:0;margin:.25rem 0}
    .legend li{display:flex;align-items:center;gap:.4rem;margin:.15rem 0}
    .swatch{display:inline-block;width:1.1rem;height:1.1rem;border:1px solid #777}
    .nearest{font-size:.9rem}
    .nearest ol{padding-left:1.2rem;margin:.25rem 0}
    .notice{background:#fff4ce;border:1px solid #c9a400;padding:.6rem .8rem;border-radius:6px}
    .chart svg{width:100%;max-width:40rem;height:auto}
    .chart .bar{fill:var(--accent)}
    .chart text{font-size:11px;fill:var(--muted)}
    .table-wrap{overflow-x:auto}
    table{border-collapse:collapse;width:100%;min-width:30rem}
    caption{text-align:left;color:var(--muted);font-size:.875rem;padding:.25rem 0}
    th,td{border-bottom:1px solid var(--line);padding:.4rem .5rem;text-align:left}
    th.n,td.n{text-align:right}
    th button{font:inherit;font-weight:600;background:none;border:0;padding:.2rem 0;cursor:pointer;color:var(--ink);min-height:32px}
    th[aria-sort=ascending] button::after{content:" ▲"}
    th[aria-sort=descending] button::after{content:" ▼"}
    th button:focus-visible{outline:2px solid var(--accent)}
    .alerts{display:grid;gap:.5rem;margin-top:1rem}
    .alerts:empty{display:none}
    .alert{border-left:6px solid var(--accent);background:#eef4fb;padding:.6rem .9rem;border-radius:4px}
    .alert.warning{border-color:#b35c00;background:#fff4e5}
    .alert.critical{border-color:var(--up);background:#fdecea}
    .alert strong{display:block}
    .alert p{margin:.2rem 0;white-space:pre-line}
    .alert .since{font-size:.8rem;color:var(--muted)}
    .resources{display:grid;grid-template-columns:repeat(auto-fit,minmax(14rem,1fr));gap:.5rem 1.5rem}
    .resources h3{font-size:1rem;margin:.5rem 0 .25rem}
    .resources ul{margin:0;padding-left:1.1rem}
    .resources li{margin:.3rem 0}
    .form-page>*{max-width:40rem}
    .kinds{margin:1rem 0}
    .report-form{margin:1rem 0}
    .report-form fieldset{border:1px solid var(--line);border-radius:8px;padding:.5rem .9rem .8rem;margin:1rem 0}
    .report-form legend{font-weight:600;padding:0 .25rem}
    .place>label{display:inline-flex;gap:.3rem;align-items:center;margin:.25rem 1rem .25rem 0;min-height:44px}
    .field{display:flex;flex-direction:column;gap:.25rem;margin:.8rem 0}
    .field label{font-weight:600}
    .hint{font-weight:400;color:var(--muted);font-size:.875rem}
    .field input,.field select,.field textarea{font:inherit;padding:.5rem;border:1px solid #767676;border-radius:6px;min-height:44px;width:100%}
    .field input:focus-visible,.field select:focus-visible,.field textarea:focus-visible,button:focus-visible{outline:3px solid var(--accent);outline-offset:1px}
    .pair{display:grid;grid-template-columns:1fr 1fr;gap:0 1rem}
    .small-map{height:16rem;border:1px solid var(--line);border-radius:8px;margin:.5rem 0}
    .witness{border-top:1px dashed var(--line);margin-top:.5rem}
    button{font:inherit;min-height:44px;padding:.5rem 1rem;border-radius:6px;border:1px solid #767676;background:#fff;cursor:pointer}
    button.primary{background:var(--accent);color:#fff;border-color:var(--accent);font-weight:600}
    button:disabled{opacity:.6;cursor:progress}
    .invalid input,.invalid select,.invalid textarea{border:2px solid var(--up)}
    .problem{color:var(--up);margin:0;font-size:.9rem}
    .error-summary{border:2px solid var(--up);border-radius:8px;padding:.6rem .9rem;margin:1rem 0}
    .error-summary ul{margin:.3rem 0;padding-left:1.2rem}
    .status{min-height:1.5rem}
    .status.error{color:var(--up);font-weight:600}
    .status.warn{color:#7a4100}
    .receipt{margin:1rem 0}
    .receipt dl{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem;margin:.5rem 0}
    .receipt dt{color:var(--muted)}
    .receipt dd{margin:0;overflow-wrap:anywhere}
    .actions{display:flex;flex-wrap:wrap;gap:.5rem}
    .state-verified{color:var(--down)}
    .state-rejected,.state-revoked{color:var(--up)}
    .admin-top{display:flex;flex-wrap:wrap;gap:.5rem 1.5rem;align-items:center}
    .admin-top nav{display:flex;gap:.25rem;flex-wrap:wrap}
    .admin-top nav a{padding:.5rem .7rem;border-radius:6px;text-decoration:none;min-height:44px;display:inline-flex;align-items:center}
    .admin-top nav a[aria-current=page]{background:var(--accent);color:#fff}
    .admin-top #who{margin:0 0 0 auto}
    .filters{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:flex-end;margin:.5rem 0 1rem}
    .filters input,.filters select{font:inherit;padding:.35rem;min-height:44px}
    .report-detail .fields{display:grid;grid-template-columns:minmax(8rem,auto) 1fr;gap:.2rem .8rem;margin:.25rem 0}
    .report-detail .fields dt,.facts dt{color:var(--muted)}
    .report-detail .fields dd,.facts dd{margin:0;overflow-wrap:anywhere;white-space:pre-line}
    .facts{display:grid;grid-template-columns:auto 1fr;gap:.2rem .8rem}
    .history{padding-left:1.2rem}
    .actions input{font:inherit;padding:.4rem;min-height:44px;flex:1 1 12rem}
    .area-label{background:none;border:0;box-shadow:none;font-weight:700;color:#111;text-shadow:0 0 3px #fff,0 0 3px #fff}
    @media (max-width:48rem){.pair{grid-template-columns:1fr}.map-box{grid-template-columns:1fr}#map{height:20rem}.big{font-size:2rem}main{padding:0 .75rem 2rem}.top{padding:.75rem}}
    """#

    /// The OGC resources' HTML forms (`FeaturePages`): plain tables, readable at phone width.
    static let ogc = #"""
    body{font:15px/1.4 system-ui,sans-serif;margin:2rem;max-width:70rem}
    table{border-collapse:collapse}
    td,th{border:1px solid #ccc;padding:.25rem .4rem;text-align:left}
    th{background:#f4f4f4}
    td.n{text-align:right}
    p{max-width:42rem}
    .withheld{color:#555;font-style:italic}
    @media(max-width:40rem){body{margin:1rem}
    table{display:block;max-width:100%;overflow-x:auto}
    td,th{padding:.2rem .3rem}
    }
    """#
}
