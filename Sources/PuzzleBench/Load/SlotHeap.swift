/// A binary min-heap of (time, bot) pairs: when each bot's next paced drag
/// is due. O(log n) per push and pop, so pacing a thousand bots costs little.
struct SlotHeap {
    private var items: [(time: UInt64, bot: Int32)] = []

    var isEmpty: Bool { items.isEmpty }
    var count: Int { items.count }
    var top: (time: UInt64, bot: Int32)? { items.first }

    mutating func removeAll() { items.removeAll(keepingCapacity: true) }

    mutating func push(time: UInt64, bot: Int) {
        items.append((time, Int32(bot)))
        var i = items.count - 1
        while i > 0 {
            let parent = (i - 1) / 2
            guard items[i].time < items[parent].time else { break }
            items.swapAt(i, parent)
            i = parent
        }
    }

    mutating func pop() -> (time: UInt64, bot: Int32)? {
        guard let first = items.first else { return nil }
        let last = items.removeLast()
        guard !items.isEmpty else { return first }
        items[0] = last
        var i = 0
        while true {
            let l = 2 * i + 1, r = l + 1
            var m = i
            if l < items.count && items[l].time < items[m].time { m = l }
            if r < items.count && items[r].time < items[m].time { m = r }
            if m == i { break }
            items.swapAt(i, m)
            i = m
        }
        return first
    }
}
