/// Why `gallery serve` cannot listen where it was asked to, and what to do about it: one line.
public struct ListenError: Error, CustomStringConvertible, Hashable {
    /// Why.
    public enum Reason: Sendable, Hashable {
        /// `--host` is no address and no name this machine resolves.
        case unknownHost
        /// The port is taken by another program.
        case portInUse
        /// The address belongs to no interface of this machine.
        case notThisMachine
        /// Ports below 1024 need privileges.
        case privilegedPort
        /// Something else, as the system says it.
        case other(String)
    }

    /// `--host` as given.
    public var host: String
    /// The port asked for.
    public var port: Int
    /// Why.
    public var reason: Reason

    public var description: String {
        switch reason {
        case .unknownHost:
            return "--host '\(host)' is no address and no name this machine can resolve; pass an address such as 127.0.0.1, ::1 or 0.0.0.0, or a name such as localhost"
        case .portInUse:
            return "port \(port) on \(host) is in use by another program (another gallery serve or hugo server?); pass another with --port N, or --port 0 for any free one"
        case .notThisMachine:
            return "\(host) is not an address of this machine, so nothing can be served on it; pass one of its own addresses, 127.0.0.1 for this machine only, or 0.0.0.0 for every interface"
        case .privilegedPort:
            return "port \(port) needs administrator rights; pass one from 1024 up with --port N, or --port 0 for any free one"
        case .other(let what):
            return "cannot listen on \(host) port \(port): \(what); pass another --host or --port"
        }
    }
}
