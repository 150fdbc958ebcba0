extension Duration {
    /// The duration in seconds as one number, for log lines and bench figures.
    package var seconds: Double {
        let c = components
        return Double(c.seconds) + Double(c.attoseconds) * 1e-18
    }
}
