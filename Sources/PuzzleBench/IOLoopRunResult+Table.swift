import Foundation

extension IOLoopRunResult {
    static let header = "variant   members rate      lines/s  deliv/s     p50us  p99us   srvCPU  drvCPU  deliv/srvCPUs  complete"

    /// One run as a table row.
    var row: String {
        let s = latency.summary
        let pad = Self.pad
        return [
            pad(variant.rawValue, 9), pad("\(members)", 7), pad(rate.map { "\($0)" } ?? "max", 9),
            pad(Self.number(linesPerSecond), 8), pad(Self.number(deliveriesPerSecond), 11),
            pad("\(s.p50)", 6), pad("\(s.p99)", 7), pad(Self.fixed(serverCPU), 7), pad(Self.fixed(driverCPU), 7),
            pad(Self.number(deliveriesPerServerCPUSecond), 14),
            complete ? "yes" : "NO (\(totalDeliveries)/\(expectedDeliveries), \(unexpectedLines) unexpected, \(linesRelayed)/\(totalLinesSent) relayed)",
        ].joined(separator: " ")
    }

    /// Medians per setting and variant, and dispatch/epoll ratios.
    static func summaryText(_ results: [IOLoopRunResult]) -> String {
        var lines = ["medians (dispatch/epoll ratio: >1 means Dispatch higher)",
                     "members rate      variant   runs deliv/s     p50us  p99us   srvCPU  deliv/srvCPUs"]
        var settings: [(Int, Int?)] = []
        for r in results where !settings.contains(where: { $0.0 == r.members && $0.1 == r.rate }) {
            settings.append((r.members, r.rate))
        }
        for (members, rate) in settings {
            var medians: [IOLoopVariant: (deliveries: Double, p50: Double, p99: Double, cpu: Double, perCPU: Double)] = [:]
            for variant in IOLoopVariant.allCases {
                let runs = results.filter { $0.members == members && $0.rate == rate && $0.variant == variant }
                guard !runs.isEmpty else { continue }
                let m = (median(runs.map(\.deliveriesPerSecond)), median(runs.map { Double($0.latency.summary.p50) }),
                         median(runs.map { Double($0.latency.summary.p99) }), median(runs.map(\.serverCPU)),
                         median(runs.map(\.deliveriesPerServerCPUSecond)))
                medians[variant] = m
                lines.append([pad("\(members)", 7), pad(rate.map { "\($0)" } ?? "max", 9), pad(variant.rawValue, 9),
                              pad("\(runs.count)", 4), pad(number(m.0), 11), pad("\(Int(m.1))", 6), pad("\(Int(m.2))", 7),
                              pad(fixed(m.3), 7), number(m.4)].joined(separator: " "))
            }
            if let e = medians[.epoll], let d = medians[.dispatch] {
                lines.append([pad("\(members)", 7), pad(rate.map { "\($0)" } ?? "max", 9), pad("d/e", 9), pad("", 4),
                              pad(ratio(d.deliveries, e.deliveries), 11), pad(ratio(d.p50, e.p50), 6),
                              pad(ratio(d.p99, e.p99), 7), pad(ratio(d.cpu, e.cpu), 7),
                              ratio(d.perCPU, e.perCPU)].joined(separator: " "))
            }
        }
        return lines.joined(separator: "\n")
    }

    static func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let mid = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2
    }

    static func ratio(_ a: Double, _ b: Double) -> String { b > 0 ? String(format: "%.2fx", a / b) : "-" }
    static func number(_ v: Double) -> String { String(Int(v.rounded())) }
    static func fixed(_ v: Double) -> String { String(format: "%.2f", v) }
}
