import PuzzleSystem

extension IOLoopLoadDriver {
    /// One receive on client `index`; every complete line is one delivery.
    func receive(_ index: Int, at arrival: UInt64) throws(Errno) {
        let result = try clients[index].socket.receive(into: readBuffer)
        guard case .processed(let n) = result else { return }
        // The relay never closes first while the driver runs: EOF is a failure.
        guard n > 0 else { throw .connectionReset }
        let bytes = UnsafeRawBufferPointer(rebasing: readBuffer[0..<n])
        var lineStart = 0
        if !clients[index].partial.isEmpty {
            // Finish the line split over two reads.
            guard let end = bytes.firstIndex(of: UInt8(ascii: "\n")) else {
                clients[index].partial.append(contentsOf: bytes)
                return
            }
            clients[index].partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[..<end]))
            clients[index].partial.withUnsafeBytes { deliver(line: $0, at: arrival) }
            clients[index].partial.removeAll(keepingCapacity: true)
            lineStart = end + 1
        }
        var position = lineStart
        while position < n {
            if bytes[position] == UInt8(ascii: "\n") {
                deliver(line: UnsafeRawBufferPointer(rebasing: bytes[lineStart..<position]), at: arrival)
                lineStart = position + 1
            }
            position += 1
        }
        if lineStart < n {
            clients[index].partial.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes[lineStart...]))
        }
    }

    /// Matches one arrived line to its send time by the sequence number after `EV `.
    private func deliver(line: UnsafeRawBufferPointer, at arrival: UInt64) {
        var scanner = LineScanner(line)
        guard line.count > 3, scanner.matches(scanner.word(), "EV"), let seq = scanner.int(),
              seq >= oldest, seq < next, remaining[seq % window] > 0 else {
            unexpected += 1
            return
        }
        let slot = seq % window
        remaining[slot] -= 1
        totalDeliveries += 1
        if arrival >= windowStart && arrival < windowEnd {
            deliveriesInWindow += 1
            let sent = sendTimes[slot]
            latency.record(arrival > sent ? (arrival - sent) / 1000 : 0)
        }
        if remaining[slot] == 0 {
            while oldest < next && remaining[oldest % window] == 0 { oldest += 1 }
        }
    }
}
