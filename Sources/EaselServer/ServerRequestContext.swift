import Hummingbird
import NIOCore

/// Hummingbird's request context with the connection's peer: the access rules tell a
/// trusted proxy (`--trusted-proxy`) from anyone else by the address a request comes from.
struct ServerRequestContext: RequestContext, RemoteAddressRequestContext {
    var coreContext: CoreRequestContextStorage
    /// The address the request's connection comes from.
    let remoteAddress: SocketAddress?

    init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
