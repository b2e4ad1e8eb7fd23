import Glibc

/// A value each thread has its own of, starting at `initial` on every thread (a pthread key:
/// what `Thread.threadDictionary` is for, without bringing Foundation's runtime into the
/// CLI). Meant for `static let`s: the key lives as long as the process.
package final class ThreadLocal<Value>: @unchecked Sendable {
    private final class Box {
        var value: Value
        init(_ value: Value) { self.value = value }
    }

    private var key = pthread_key_t()
    private let initial: @Sendable () -> Value

    package init(_ initial: @escaping @Sendable () -> Value) {
        self.initial = initial
        // A thread's box is released when the thread ends.
        pthread_key_create(&key) { pointer in
            if let pointer { Unmanaged<AnyObject>.fromOpaque(pointer).release() }
        }
    }

    /// This thread's value.
    package var value: Value {
        get { box.value }
        set { box.value = newValue }
    }

    private var box: Box {
        if let pointer = pthread_getspecific(key) { return Unmanaged<Box>.fromOpaque(pointer).takeUnretainedValue() }
        let made = Box(initial())
        pthread_setspecific(key, Unmanaged.passRetained(made).toOpaque())
        return made
    }
}
