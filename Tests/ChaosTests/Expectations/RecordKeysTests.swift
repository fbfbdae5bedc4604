@testable import Chaos
import Testing

/// The keys a case wrote, kept as numbers where a key reads back the same from one: a
/// set of strings in every way a check can see.
@Suite struct RecordKeysTests {
    @Test(arguments: [("favorite:12", "favorite:", 12), ("a:b:0", "a:b:", 0), (":7", ":", 7)])
    func aNumberedKeyIsItsPrefixAndNumber(key: String, prefix: String, number: Int) throws {
        let split = try #require(RecordKeys.split(key))
        #expect(split.0 == prefix && split.1 == number)
    }

    @Test(arguments: ["favorite:012", "favorite:-1", "favorite:", "favorite", "favorite:1a", "a:+1", "a:١٢",
                      "a:1234567890123456789", "note:6F9619FF-8B86-D011-B42D-00C04FC964FF"])
    func aKeyThatWouldNotReadBackIsKeptAsItself(key: String) {
        #expect(RecordKeys.split(key) == nil)
        var keys = RecordKeys()
        let inserted = keys.insert(key)
        #expect(inserted && keys.contains(key) && Array(keys) == [key])
    }

    @Test func itBehavesAsASetOfItsStrings() {
        let strings = ["favorite:1", "favorite:2", "favorite:010", "note:a", "entry:0", "favorite:2", "x"]
        var keys = RecordKeys(strings)
        #expect(Set(keys) == Set(strings) && keys.count == Set(strings).count && Array(keys).count == keys.count)
        #expect(keys.contains("favorite:1") && !keys.contains("favorite:01") && !keys.contains("favorite:3"))
        let again = keys.insert("favorite:1")
        #expect(!again, "already there")
        let removed = keys.remove("favorite:1"), twice = keys.remove("favorite:1"), other = keys.remove("x")
        #expect(removed && !twice && other && !keys.contains("favorite:1"))
        #expect(keys.count == Set(strings).count - 2)
        var told: RecordKeys = []
        #expect(told.isEmpty)
        told.formUnion(keys)
        #expect(told == keys && Set(told) == Set(keys))
        for key in Array(keys) { keys.remove(key) }
        #expect(keys.isEmpty && keys.count == 0 && keys == [] && Array(keys).isEmpty, "emptied: equal to a new one")
    }
}
