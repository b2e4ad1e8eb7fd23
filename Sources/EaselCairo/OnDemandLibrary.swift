/// The libraries EaselCairo opens the first time they are needed (`CEaselOnDemand`).
enum OnDemandLibrary {
    /// Why a library could not be opened, from the dynamic loader's message (which names
    /// the file).
    static func failure(_ message: UnsafePointer<CChar>?) -> String {
        message.map { String(cString: $0) } ?? "the dynamic loader gave no reason"
    }
}
