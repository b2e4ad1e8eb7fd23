/// Where a value sits in a JSON document, printed as `imageElements[2].transform.size`.
///
/// A path is its last component and a shared reference to the path before it, so
/// `appending` costs one small allocation whatever the depth: decoders make a path for
/// every value they read, and copying whole arrays there made reading a 1,000-shape drawing
/// several times slower.
package struct KeyPath: Hashable, Sendable, CustomStringConvertible {
    package enum Component: Hashable, Sendable {
        case key(String)
        case index(Int)
    }

    private final class Link: Sendable {
        let parent: Link?
        let component: Component
        init(parent: Link?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    private let last: Link?

    private init(last: Link?) { self.last = last }

    package init(_ components: [Component] = []) {
        var last: Link?
        for component in components { last = Link(parent: last, component: component) }
        self.last = last
    }

    /// The components from the top level down.
    package var components: [Component] {
        var result: [Component] = []
        var link = last
        while let current = link {
            result.append(current.component)
            link = current.parent
        }
        return result.reversed()
    }

    package func appending(_ component: Component) -> KeyPath { KeyPath(last: Link(parent: last, component: component)) }
    package func appending(key: String) -> KeyPath { appending(.key(key)) }
    package func appending(index: Int) -> KeyPath { appending(.index(index)) }

    package static func == (lhs: KeyPath, rhs: KeyPath) -> Bool { lhs.last === rhs.last || lhs.components == rhs.components }
    package func hash(into hasher: inout Hasher) { hasher.combine(components) }

    package var description: String {
        var text = ""
        for component in components {
            switch component {
            case .key(let key):
                if !text.isEmpty { text += "." }
                text += key
            case .index(let index):
                text += "[\(index)]"
            }
        }
        return text.isEmpty ? "(top level)" : text
    }
}
