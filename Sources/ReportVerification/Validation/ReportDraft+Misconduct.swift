import DomainKernel

extension ReportDraft {
    /// The misconduct fields, checked; nil when any is wrong (the validator then holds why).
    func misconduct(place: ReportPlace?, _ v: inout DraftValidator) -> MisconductReport? {
        let occurredAt = v.instant("occurredAt", self.occurredAt)
        let officerName = v.text("officerName", self.officerName, max: ReportLimits.shortText)
        let badgeNumber = v.text("badgeNumber", self.badgeNumber, max: ReportLimits.shortText)
        let officer = v.text("officerDescription", officerDescription, max: ReportLimits.longText, required: true, multiline: true)
        let incident = v.text("incidentDescription", incidentDescription, max: ReportLimits.longText, required: true, multiline: true)
        let witnesses = checkedWitnesses(&v)
        let victim = checkedVictim(&v)
        let attachments = checkedAttachments(&v)
        v.notApplicable([
            ("affiliation", isGiven(affiliation)), ("age", age != nil), ("phone", isGiven(phone)), ("testDate", isGiven(testDate)),
            ("lastOnCampus", isGiven(lastOnCampus)), ("diagnosis", isGiven(diagnosis)), ("notes", isGiven(notes)),
        ], to: .misconduct)
        guard v.problems.isEmpty, let occurredAt, let officer, let incident, let place else { return nil }
        return MisconductReport(occurredAt: occurredAt, place: place, officerName: officerName, badgeNumber: badgeNumber,
                                officerDescription: officer, incidentDescription: incident, witnesses: witnesses,
                                victim: victim, attachments: attachments, anonymous: anonymous ?? true)
    }

    private func checkedWitnesses(_ v: inout DraftValidator) -> [Witness] {
        let drafts = self.witnesses ?? []
        v.count("witnesses", drafts.count, max: ReportLimits.witnesses, noun: "witnesses")
        return drafts.prefix(ReportLimits.witnesses).enumerated().compactMap { i, w in
            let contact = v.text("witnesses[\(i)].contact", w.contact, max: ReportLimits.shortText)
            let statement = v.text("witnesses[\(i)].statement", w.statement, max: ReportLimits.longText, multiline: true)
            if !isGiven(w.contact), !isGiven(w.statement) {
                v.fail("witnesses[\(i)]", .required, "a witness needs a contact or a statement")
            }
            return contact == nil && statement == nil ? nil : Witness(contact: contact, statement: statement)
        }
    }

    private func checkedVictim(_ v: inout DraftValidator) -> Victim? {
        guard let d = self.victim else { return nil }
        let victim = Victim(race: v.text("victim.race", d.race, max: ReportLimits.shortText),
                            gender: v.text("victim.gender", d.gender, max: ReportLimits.shortText),
                            comments: v.text("victim.comments", d.comments, max: ReportLimits.longText, multiline: true))
        // An all-blank victim section is an untouched form section, not a victim.
        return victim.race == nil && victim.gender == nil && victim.comments == nil ? nil : victim
    }

    private func checkedAttachments(_ v: inout DraftValidator) -> [AttachmentID] {
        let ids = self.attachments ?? []
        v.count("attachments", ids.count, max: ReportLimits.attachments, noun: "attachments")
        var seen: [String: Int] = [:]
        return ids.prefix(ReportLimits.attachments).enumerated().compactMap { i, raw in
            guard let id = v.text("attachments[\(i)]", raw, max: ReportLimits.idText, required: true) else { return nil }
            if let first = seen[id] {
                v.fail("attachments[\(i)]", .conflicting, "repeats attachments[\(first)]")
                return nil
            }
            seen[id] = i
            return AttachmentID(rawValue: id)
        }
    }
}
