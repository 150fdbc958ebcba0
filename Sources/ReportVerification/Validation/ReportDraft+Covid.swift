import DomainKernel

extension ReportDraft {
    /// The covid fields, checked; nil when any is wrong (the validator then holds why).
    ///
    /// No rule ties the test date to the last day on campus: COVID Lens states none, and either
    /// order is real (tested after leaving, or tested and then stayed away).
    func covid(place: ReportPlace?, _ v: inout DraftValidator) -> CovidReport? {
        let affiliation: Affiliation? = v.choice("affiliation", self.affiliation, required: true)
        if let age, !ReportLimits.age.contains(age) {
            v.fail("age", .outOfRange, "must be between \(ReportLimits.age.lowerBound) and \(ReportLimits.age.upperBound)")
        }
        let phone = v.phone("phone", self.phone)
        let testDate = v.day("testDate", self.testDate, required: true)
        let lastOnCampus = v.day("lastOnCampus", self.lastOnCampus, required: true)
        let diagnosis: Diagnosis? = v.choice("diagnosis", self.diagnosis, required: false)
        let notes = v.text("notes", self.notes, max: ReportLimits.longText, multiline: true)
        v.notApplicable([
            ("occurredAt", isGiven(occurredAt)), ("officerName", isGiven(officerName)), ("badgeNumber", isGiven(badgeNumber)),
            ("officerDescription", isGiven(officerDescription)), ("incidentDescription", isGiven(incidentDescription)),
            ("witnesses", isGiven(witnesses)), ("victim", victim != nil), ("attachments", isGiven(attachments)),
            ("anonymous", anonymous != nil),
        ], to: .covid)
        guard v.problems.isEmpty, let affiliation, let phone, let testDate, let lastOnCampus, let place else { return nil }
        return CovidReport(affiliation: affiliation, age: age, phone: phone, place: place, testDate: testDate,
                           lastOnCampus: lastOnCampus, diagnosis: diagnosis, notes: notes)
    }
}
