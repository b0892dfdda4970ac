import PuzzleSystem
import PuzzleTelnet

extension PuzzleServer {
    /// Starts the telnet gateway when the config asks for one: its sessions reach the rooms
    /// through socket pairs whose server end this loop adopts (`adoptConnections`).
    static func startTelnet(config: ServerConfig, adopted: AdoptedSockets, logger: Logger) throws -> TelnetGateway? {
        guard let port = config.telnetListenPort else { return nil }
        let settings = TelnetSettings(bind: config.bind, port: port, maxSessions: config.telnetMaxSessions,
                                      idleTimeoutSeconds: config.idleTimeoutSeconds, sendBuffer: config.socketSendBuffer)
        let gateway: TelnetGateway
        do {
            gateway = try TelnetGateway(settings: settings, connect: { host in
                let (ours, theirs) = try Socket.pair()
                guard adopted.hand(ours, host: host, peer: "telnet \(host)") else {
                    try? theirs.close()
                    throw Errno.connectionRefused
                }
                return theirs
            }, log: { logger.info($0) })
        } catch let error as Errno {
            let failure = ListenError(address: config.bind, port: port, errno: error)
            // Asked for by name it must be there; the default gives way to whatever holds the port.
            guard config.telnetPort == .auto else { throw failure }
            logger.warn("no telnet port: \(failure) (telnet_port = auto; set telnet_port to a free port, or off)")
            return nil
        }
        gateway.start()
        logger.info("telnet players connect to \(config.bind) port \(gateway.port)")
        return gateway
    }

    /// The sockets the telnet gateway handed over: connections from their players'
    /// addresses, admitted (or refused) as the listener's are.
    func adoptConnections() {
        for handed in adopted.take() {
            admit(handed.socket, peer: handed.peer, host: handed.host)
        }
    }
}

extension PuzzleServer {
    /// Ends the telnet sessions and takes no more sockets from them (at shutdown).
    func stopTelnet() {
        telnet?.stop()
        adopted.close()
        for handed in adopted.take() { try? handed.socket.close() }
    }
}
