/// What one `IOLoopComparison` run measured, over the measured window only
/// (warm-up and final drain excluded), plus whole-run totals for the checks.
public struct IOLoopRunResult: Sendable {
    public var variant: IOLoopVariant
    public var members: Int
    /// Offered lines per second; nil = max (window-bound).
    public var rate: Int?
    /// Length of the measured window in seconds.
    public var seconds: Double
    /// Lines sent and deliveries (a line arriving at one member) in the window.
    public var linesSent: Int
    public var deliveries: Int
    /// Send → arrival at each member, microseconds, for deliveries in the window.
    public var latency: LatencyHistogram
    /// CPU seconds in the window: the whole process, the load driver's thread,
    /// and their difference, which is the relay server's.
    public var processCPU: Double
    public var driverCPU: Double
    public var serverCPU: Double { max(0, processCPU - driverCPU) }

    /// Whole run: lines sent, deliveries expected (lines × members) and seen,
    /// and arrivals that matched no line in flight (corrupt, duplicate).
    public var totalLinesSent: Int
    public var totalDeliveries: Int
    public var unexpectedLines: Int
    /// Lines the relay says it relayed.
    public var linesRelayed: Int

    public var expectedDeliveries: Int { totalLinesSent * members }
    /// Every line reached every member exactly once, and nothing else arrived.
    public var complete: Bool {
        totalDeliveries == expectedDeliveries && unexpectedLines == 0 && linesRelayed == totalLinesSent
    }
    public var deliveriesPerSecond: Double { seconds > 0 ? Double(deliveries) / seconds : 0 }
    public var linesPerSecond: Double { seconds > 0 ? Double(linesSent) / seconds : 0 }
    /// Deliveries per CPU-second of the relay server.
    public var deliveriesPerServerCPUSecond: Double { serverCPU > 0 ? Double(deliveries) / serverCPU : 0 }
}
