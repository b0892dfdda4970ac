import CSystem
import Testing
@testable import PuzzleSystem

@Suite struct ErrnoTests {
    @Test func descriptionNamesTheError() {
        #expect(Errno.brokenPipe.description.contains("Broken pipe"))
        #expect(Errno.brokenPipe.description.contains("errno 32"))
    }

    @Test func retryOnInterruptRetriesEINTRUntilSuccess() throws {
        var calls = 0
        let result = retryOnInterrupt { () -> Int32 in
            calls += 1
            if calls < 3 {
                csystem_set_errno(Errno.interrupted.rawValue)
                return -1
            }
            return 7
        }
        #expect(calls == 3)
        #expect(try result.get() == 7)
    }

    @Test func retryOnInterruptReportsOtherErrorsAtOnce() {
        var calls = 0
        let result = retryOnInterrupt { () -> Int32 in
            calls += 1
            csystem_set_errno(Errno.badFileDescriptor.rawValue)
            return -1
        }
        #expect(calls == 1)
        #expect(throws: Errno.badFileDescriptor) { try result.get() }
    }

    @Test func ioResultMapsEAGAINToWouldBlock() throws {
        let result = try ioResult {
            csystem_set_errno(Errno.wouldBlock.rawValue)
            return -1
        }
        #expect(result == .wouldBlock)
    }

    @Test func closingABadDescriptorIsATypedError() {
        #expect(throws: Errno.badFileDescriptor) { try FileDescriptor(rawValue: -1).close() }
    }
}
