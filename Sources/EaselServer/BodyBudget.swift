import EaselSupport
import Foundation
import Hummingbird

/// The request bodies the server holds in memory at once, bounded in bytes for the whole
/// server: a request's reservation grows by each part of its body as the part arrives, and
/// is given back when the request ends. A body that finds the budget spent is refused at once
/// (503 with `Retry-After`), so a flood of large POSTs costs the server at most the budget,
/// not the flood's size; and a client that declares large bodies and sends nothing holds
/// nothing (four such requests once held the whole budget, and every other body was refused).
final class BodyBudget: Sendable {
    /// Bytes of bodies that may be held at once.
    let capacity: Int
    private let reserved = Locked(0)

    /// A budget of `capacity` bytes (at least one byte).
    init(capacity: Int) { self.capacity = max(1, capacity) }

    /// Bytes reserved now.
    var inUse: Int { reserved.withLock { $0 } }

    /// A reservation holding nothing yet: it grows as its body arrives.
    func reservation() -> Reservation { Reservation(budget: self) }

    /// Takes `amount` more bytes; false when they are not free.
    fileprivate func take(_ amount: Int) -> Bool {
        reserved.withLock { used -> Bool in
            guard used + amount <= capacity else { return false }
            used += amount
            return true
        }
    }

    fileprivate func giveBack(_ amount: Int) { reserved.withLock { $0 -= amount } }

    /// Bytes of the budget held for one request, grown as its body arrives; given back by
    /// `release()` (once: later calls do nothing), or when the reservation goes away unreleased.
    final class Reservation: Sendable {
        private let budget: BodyBudget
        /// The bytes held, and whether they were given back.
        private let state = Locked((held: 0, released: false))

        fileprivate init(budget: BodyBudget) { self.budget = budget }

        /// Holds `bytes` more (up to the whole budget in all: a body the size of the budget is
        /// read when it is the only one); throws a 503 `Problem` when they are not free, or
        /// after `release()`.
        func grow(by bytes: Int) throws {
            let taken = state.withLock { state -> Bool in
                let amount = min(max(0, bytes), budget.capacity - state.held)
                guard !state.released, budget.take(amount) else { return false }
                state.held += amount
                return true
            }
            guard taken else {
                throw Problem.busy(
                    "the server is reading as many request bodies as it may hold at once (\(budget.capacity >> 20) MiB); try again shortly",
                    nothingDone: true)
            }
        }

        /// Gives the bytes back to the budget.
        func release() {
            let amount = state.withLock { state -> Int in
                guard !state.released else { return 0 }
                state.released = true
                return state.held
            }
            if amount > 0 { budget.giveBack(amount) }
        }

        deinit { release() }
    }
}

/// A request body read within a route's limit, with its bytes reserved in the server's
/// `BodyBudget` until `release()` (the route releases it when the request ends).
struct AdmittedBody: Sendable {
    /// The body.
    let bytes: [UInt8]
    /// Its share of the budget.
    let reservation: BodyBudget.Reservation

    /// Gives the body's bytes back to the budget.
    func release() { reservation.release() }

    /// Reads the body of `request`: refused with 413 at once when its declared length is
    /// over `limit`, with 503 as soon as the server's `budget` cannot hold what has arrived,
    /// with 413 as soon as more than `limit` bytes arrive (a body without a declared
    /// length), and with 408 when the client takes longer than `timeout` seconds to send
    /// it. Whatever happens, the reservation is given back when this throws.
    static func read(_ request: Request, limit: Int, timeout: Double, budget: BodyBudget) async throws -> AdmittedBody {
        let declared = try declaredLength(of: request, limit: limit)
        let reservation = budget.reservation()
        do {
            let bytes = try await collect(
                request.body, declared: declared, limit: limit, timeout: timeout, reservation: reservation)
            return AdmittedBody(bytes: bytes, reservation: reservation)
        } catch {
            reservation.release()
            throw error
        }
    }

    /// The body's `Content-Length`, refused with 413 when it is over `limit`.
    static func declaredLength(of request: Request, limit: Int) throws -> Int? {
        guard let length = request.headers[.contentLength].flatMap(Int.init) else { return nil }
        guard length <= limit else {
            throw Problem(.contentTooLarge, "the request body (\(length) bytes) is over the limit of \(limit) bytes")
        }
        return length
    }

    /// The body's bytes in one array, allocated once at the declared length when its first
    /// part arrives (no buffer grown by doubling and copied at the end: the body takes its
    /// own size in memory, not two or three times it), each part taken from the budget as it
    /// arrives, and stopped past `limit` while it is read.
    private static func collect(
        _ body: RequestBody, declared: Int?, limit: Int, timeout: Double, reservation: BodyBudget.Reservation
    ) async throws -> [UInt8] {
        try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var bytes: [UInt8] = []
                do {
                    for try await part in body {
                        guard part.readableBytes <= limit - bytes.count else {
                            throw Problem(.contentTooLarge, "the request body is over the limit of \(limit) bytes")
                        }
                        try reservation.grow(by: part.readableBytes)
                        if bytes.isEmpty { bytes.reserveCapacity(min(declared ?? 0, limit)) }
                        bytes.append(contentsOf: part.readableBytesView)
                    }
                } catch let problem as Problem {
                    throw problem
                } catch {
                    throw Problem(.badRequest, "the request body ended early or could not be read (\(error))")
                }
                return bytes
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(timeout))
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let bytes = first else {
                throw Problem(.requestTimeout, "the request body did not arrive within \(String(format: "%g", timeout)) seconds")
            }
            return bytes
        }
    }
}
