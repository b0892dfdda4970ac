import Testing
import PuzzleTelnet

/// One test per rule of `TelnetDecoder`.
@Suite struct TelnetDecoderTests {
    typealias Event = TelnetDecoder.Event
    let iac = TelnetByte.iac

    private func decode(_ bytes: [UInt8], in chunks: Int? = nil) -> [Event] {
        var d = TelnetDecoder()
        guard let chunks else { return d.feed(bytes) }
        var out: [Event] = []
        var i = 0
        while i < bytes.count {
            out += d.feed(bytes[i..<min(bytes.count, i + chunks)])
            i += chunks
        }
        // Data runs cut by the chunks are merged for comparison.
        var merged: [Event] = []
        for e in out {
            if case .data(let b) = e, case .data(let a)? = merged.last {
                merged[merged.count - 1] = .data(a + b)
            } else {
                merged.append(e)
            }
        }
        return merged
    }

    @Test func plainBytesAreData() {
        #expect(decode(Array("hello".utf8)) == [.data(Array("hello".utf8))])
    }

    @Test func doubledIACIsOneDataByte() {
        #expect(decode([0x41, iac, iac, 0x42]) == [.data([0x41, 0xFF, 0x42])])
    }

    @Test func negotiationsAreReadWithTheirOption() {
        #expect(decode([iac, TelnetByte.will, 31, iac, TelnetByte.dont, 1, iac, TelnetByte.do, 24, iac, TelnetByte.wont, 3]) == [
            .negotiation(verb: TelnetByte.will, option: 31), .negotiation(verb: TelnetByte.dont, option: 1),
            .negotiation(verb: TelnetByte.do, option: 24), .negotiation(verb: TelnetByte.wont, option: 3),
        ])
    }

    @Test func subnegotiationPayloadIsUnescaped() {
        // NAWS of 255 columns: the width's low byte is sent doubled.
        let bytes: [UInt8] = [iac, TelnetByte.sb, 31, 0, iac, iac, 0, 40, iac, TelnetByte.se]
        #expect(decode(bytes) == [.subnegotiation(option: 31, payload: [0, 0xFF, 0, 40])])
    }

    @Test func otherCommandsAreReported() {
        #expect(decode([0x61, iac, TelnetByte.nop, 0x62, iac, TelnetByte.ip]) == [.data([0x61]), .command(TelnetByte.nop), .data([0x62]), .command(TelnetByte.ip)])
    }

    @Test func carriageReturnLineFeedAndCarriageReturnNulAreOneCarriageReturn() {
        #expect(decode(Array("a\r\nb\r\0c\rd\n".utf8)) == [.data(Array("a\rb\rc\rd\n".utf8))])
        // Split between reads too.
        var d = TelnetDecoder()
        #expect(d.feed([0x61, 0x0D]) == [.data([0x61, 0x0D])])
        #expect(d.feed([0x00, 0x62]) == [.data([0x62])])
    }

    @Test func commandsCutBetweenReadsAreFinished() {
        let bytes: [UInt8] = [0x61, iac, TelnetByte.will, 24, iac, TelnetByte.sb, 24, 0] + Array("XTERM".utf8) + [iac, TelnetByte.se, 0x62]
        let whole = decode(bytes)
        #expect(whole == [.data([0x61]), .negotiation(verb: TelnetByte.will, option: 24),
                          .subnegotiation(option: 24, payload: [0] + Array("XTERM".utf8)), .data([0x62])])
        for size in 1...4 { #expect(decode(bytes, in: size) == whole, "reads of \(size)") }
    }

    @Test func overlongSubnegotiationIsReadToItsEndAndDropped() {
        var d = TelnetDecoder(maxSubnegotiation: 8)
        var events = d.feed([iac, TelnetByte.sb, 24] + [UInt8](repeating: 0x41, count: 10_000))
        #expect(events.isEmpty)
        #expect(d.heldBytes <= 8, "an endless subnegotiation holds \(d.heldBytes) bytes")
        events = d.feed([iac, TelnetByte.se, 0x7A])
        #expect(events == [.overlongSubnegotiation(option: 24), .data([0x7A])])
    }

    @Test func subnegotiationCutByACommandIsDroppedAndTheCommandRead() {
        #expect(decode([iac, TelnetByte.sb, 31, 0, 80, iac, TelnetByte.will, 1, 0x78]) == [
            .brokenSubnegotiation(option: 31), .negotiation(verb: TelnetByte.will, option: 1), .data([0x78]),
        ])
    }

    @Test func abandonedSubnegotiationLeavesDataAfterIt() {
        var d = TelnetDecoder()
        #expect(d.feed([iac, TelnetByte.sb, 24, 0, 0x41]).isEmpty)
        #expect(d.inSubnegotiation)
        d.abandonSubnegotiation()
        #expect(!d.inSubnegotiation)
        #expect(d.feed(Array("ok".utf8)) == [.data(Array("ok".utf8))])
    }

    @Test func floodOfIACsNeverHoldsMemory() {
        var d = TelnetDecoder()
        // Pairs are data bytes; a lone last one waits for its command.
        let events = d.feed([UInt8](repeating: iac, count: 100_001))
        #expect(events == [.data([UInt8](repeating: 0xFF, count: 50_000))])
        #expect(d.heldBytes == 0)
    }

    @Test func encoderDoublesIACAndFramesSubnegotiations() {
        #expect(TelnetEncoder.data([1, 0xFF, 2]) == [1, 0xFF, 0xFF, 2])
        #expect(TelnetEncoder.subnegotiation(24, [1]) == [iac, TelnetByte.sb, 24, 1, iac, TelnetByte.se])
        // What the decoder reads back is what was encoded.
        var d = TelnetDecoder()
        let payload: [UInt8] = [0xFF, 0x00, 0xFF, 0xFF, 0x0D]
        #expect(d.feed(TelnetEncoder.data(payload)) == [.data(payload)])
    }
}
