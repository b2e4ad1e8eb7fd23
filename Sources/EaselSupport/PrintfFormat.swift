import Glibc

extension String {
    /// `format` with `arguments` put in as C's `printf` puts them (numbers: `%d`, `%.1f`,
    /// `%04x`, `%.17g`…; a point before decimals, as the C locale Easel runs in writes them).
    ///
    /// Easel's own because Foundation's `String(format:)` is the one call that would bring
    /// Foundation's whole runtime (CoreFoundation and ICU) into the `easel` executable, and
    /// with it about a millisecond of every process's start (docs/architecture.md).
    package init(printf format: String, _ arguments: CVarArg...) {
        self.init(printf: format, arguments: arguments)
    }

    /// The same, the arguments given as an array.
    package init(printf format: String, arguments: [CVarArg]) {
        var capacity = 128
        while true {
            // A va_list is read once: each attempt makes its own.
            let (text, needed) = withVaList(arguments) { list -> (String, Int) in
                var buffer = [UInt8](repeating: 0, count: capacity)
                let count = buffer.withUnsafeMutableBufferPointer { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { Int(vsnprintf($0.baseAddress, capacity, format, list)) }
                }
                return (count >= 0 && count < capacity ? String(decoding: buffer[..<count], as: UTF8.self) : "", count)
            }
            guard needed >= capacity else {
                self = needed < 0 ? "" : text
                return
            }
            capacity = needed + 1
        }
    }
}
