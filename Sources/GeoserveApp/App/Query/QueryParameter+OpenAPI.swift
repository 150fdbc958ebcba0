extension QueryParameter {
    /// The parameter as an OpenAPI 3.1 parameter object.
    var openAPI: [String: Any] {
        var p: [String: Any] = ["name": name, "in": "query", "required": required, "schema": schema, "description": description]
        // Lists travel as one comma-separated value (bbox=1,2,3,4), not as repeated names.
        switch kind {
        case .numbers, .choices, .bbox: p["style"] = "form"; p["explode"] = false
        default: break
        }
        return p
    }

    /// The JSON Schema of the value.
    var schema: [String: Any] {
        var s: [String: Any]
        switch kind {
        case .integer(let r, let clamps):
            s = ["type": "integer", "minimum": r.lowerBound]
            if !clamps { s["maximum"] = r.upperBound }
        case .number(let r): s = ["type": "number", "minimum": r.lowerBound, "maximum": r.upperBound]
        case .choice(let words): s = ["type": "string", "enum": words]
        case .choices(let words): s = ["type": "array", "items": ["type": "string", "enum": words], "minItems": 1]
        case .date: s = ["type": "string", "format": "date"]
        case .boolean: s = ["type": "boolean"]
        case .numbers(let count): s = ["type": "array", "items": ["type": "number"], "minItems": count.lowerBound, "maxItems": count.upperBound]
        case .text(let max): s = ["type": "string", "minLength": 1, "maxLength": max]
        case .pattern(let p, let max): s = ["type": "string", "pattern": p.source, "maxLength": max]
        case .bbox:
            let lon: [String: Any] = ["type": "number", "minimum": -180, "maximum": 180]
            let lat: [String: Any] = ["type": "number", "minimum": -90, "maximum": 90]
            let height: [String: Any] = ["type": "number"]
            func box(_ items: [[String: Any]]) -> [String: Any] {
                ["prefixItems": items, "minItems": items.count, "maxItems": items.count]
            }
            // An array at the top, so clients serialise it as one comma-separated value; the two
            // forms with their per-position ranges inside.
            s = ["type": "array", "items": ["type": "number"], "minItems": 4, "maxItems": 6,
                 "oneOf": [box([lon, lat, lon, lat]), box([lon, lat, height, lon, lat, height])]]
        }
        if let defaultValue {
            switch kind {
            case .integer: s["default"] = Int(defaultValue) ?? defaultValue
            case .boolean: s["default"] = defaultValue == "true"
            default: s["default"] = defaultValue
            }
        }
        for (key, value) in schemaExtras { s[key] = value.json }
        return s
    }
}
