/// The list a screen shows, kept in place after a write the store acknowledged rather
/// than fetched again: records in id order, one per id.
extension Array where Element: Identifiable, Element.ID: Comparable {
    /// Puts `record` in its place by id, replacing one with the same id.
    mutating func place(_ record: Element) {
        removeAll { $0.id == record.id }
        insert(record, at: firstIndex { $0.id > record.id } ?? endIndex)
    }

    /// Takes the record with `id` off the list.
    mutating func remove(id: Element.ID) {
        removeAll { $0.id == id }
    }
}
