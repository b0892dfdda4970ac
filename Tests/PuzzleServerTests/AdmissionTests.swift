@testable import PuzzleServer
import Testing

/// Who may connect, from counts alone.
@Suite struct AdmissionTests {
    let admission = Admission(maxConnections: 10, maxPerAddress: 2)

    @Test func aConnectionUnderBothCapsMayStay() {
        #expect(admission.refusal(host: "10.0.0.1", open: 9, fromHost: 1, stopping: false) == nil)
    }

    @Test func aFullServerRefusesEveryone() {
        #expect(admission.refusal(host: "10.0.0.1", open: 10, fromHost: 0, stopping: false)?.bye == .full("server is full (10 connections)"))
    }

    @Test func oneAddressMayNotTakeMoreThanItsShare() {
        let refusal = admission.refusal(host: "10.0.0.1", open: 3, fromHost: 2, stopping: false)
        #expect(refusal?.bye == .full("too many connections from 10.0.0.1 (limit 2)"))
        #expect(Admission(maxConnections: 10, maxPerAddress: 0).refusal(host: "h", open: 3, fromHost: 9, stopping: false) == nil)
    }

    @Test func aServerShuttingDownSaysSoFirst() {
        #expect(admission.refusal(host: "h", open: 10, fromHost: 5, stopping: true)?.bye == .shutdown)
    }
}
