/// Length and range limits of report fields, in one place.
public enum ReportLimits {
    public static let shortText = 200        // names, badge numbers, race, gender, contact
    public static let longText = 5_000       // descriptions, statements, notes, comments
    public static let witnesses = 20
    public static let maxAccuracyMetres = 10_000.0
    public static let phoneDigits = 7...20
    public static let age = 0...130
    public static let idText = 128           // layer names, area ids
}
