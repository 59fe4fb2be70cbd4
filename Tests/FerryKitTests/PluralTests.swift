import Foundation
import Testing

@testable import FerryCore
@testable import FerryKit

/// Messages with a count say it in the form the count takes: every plural
/// message of every catalog picks, for 0, 1, 2, 5, 21 and 1,000, the
/// variant its language's CLDR rule gives (`PluralRule`), and shows the
/// count; a count that a noun follows ("1 photo references name a
/// folder…") is never in a message without plural variants.
@Suite struct PluralTests {
    static let counts = [0, 1, 2, 5, 21, 1_000]

    @Test(arguments: ["en", "en-GB", "es", "fr", "de", "it", "el"])
    func everyPluralMessageTakesTheVariantOfItsCount(_ language: String) throws {
        let table = try #require(Messages.builtInTables[language])
        let catalog = Messages.catalog(locale: language)
        let rule = PluralRule(language: language)
        let bases = Set(table.keys.filter { $0.contains("#") }.map { String($0.prefix { $0 != "#" }) })
        #expect(bases.count >= 30)
        for base in bases.sorted() {
            for count in Self.counts {
                let variant = base + "#" + rule.category(of: count).rawValue
                let template = try #require(table[variant], "\(language): \(variant) is missing")
                let shown = catalog.render(.count(count))
                let arguments = [MessageArgument](repeating: .count(count), count: 9)
                let message = catalog.message(PluralKey(base), count: count, arguments)
                let expected = template.replacing(/%\d+\$@/, with: shown).replacing("%%", with: "%")
                #expect(message == expected, "\(language): \(base) with \(count)")
                #expect(message.contains(shown), "\(language): \(variant) does not show its count")
            }
        }
    }

    /// A plain English message in which a count placeholder is followed by
    /// a counted noun or a verb that agrees with it; such a message reads
    /// "1 records" for one. Only these, where the placeholder is no count,
    /// may.
    static let notCounts: Set<String> = ["merge.kindMismatch"]

    @Test func countedNounsFollowACountOnlyInPluralMessages() throws {
        let english = try #require(Messages.builtInTables["en"])
        let counted =
            /%\d\$@ (\w+ )?(records|errors|files|items|bytes|references|entries|objects|values|rows|fields|were|are|have)\b/
        let plain = english.filter { !$0.key.contains("#") && !Self.notCounts.contains($0.key) }
        let found = plain.filter { $0.value.contains(counted) }.map(\.key).sorted()
        #expect(found == [])
    }

    /// The factories of those messages pass their count as `.count`, which
    /// picks the variant.
    @Test func countedErrorsCarryACount() {
        #expect(FerryError.schemaMinItems("tags", limit: 1, at: .unknown).arguments.last == .count(1))
        #expect(FerryError.schemaMaxItems("tags", limit: 1, at: .unknown).arguments.last == .count(1))
        #expect(FerryError.shardPlanStale("p.csv", planned: 1, size: 2).arguments[1] == .count(1))
        let catalog = Messages.catalog(locale: "en")
        let error = FerryError.shardPlanStale("p.csv", planned: 1, size: 2)
        let stale = catalog.message(error.code, error.arguments)
        #expect(stale == catalog.message(PluralKey("shard.planStale"), count: 1, [.path("p.csv"), .count(1), .integer(2)]))
    }
}
