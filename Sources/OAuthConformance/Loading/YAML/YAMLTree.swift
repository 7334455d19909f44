import Yams

/// Walks a composed tree once per node as written. Yams gives an alias the very node it names,
/// so a "billion laughs" file is a small text whose tree, walked naively, never ends; a
/// collection met again at the same place is that same collection, reached through an alias.
enum YAMLTree {
    static func forEachNode(in root: Node, _ visit: (Node) -> Void) {
        var seen = Set<Place>()
        var pending = [root]
        while let node = pending.popLast() {
            visit(node)
            switch node {
            case .sequence(let sequence):
                guard seen.insert(Place(isMapping: false, node.mark)).inserted else { continue }
                pending.append(contentsOf: sequence.reversed())
            case .mapping(let mapping):
                guard seen.insert(Place(isMapping: true, node.mark)).inserted else { continue }
                for (key, value) in mapping.reversed() { pending += [value, key] }
            case .scalar, .alias:
                break
            }
        }
    }

    static func forEachMapping(in root: Node, _ visit: (Node.Mapping) -> Void) {
        forEachNode(in: root) { node in
            if case .mapping(let mapping) = node { visit(mapping) }
        }
    }

    /// A block mapping starts where its first key does, which may be a flow list: the kind tells them apart.
    private struct Place: Hashable {
        let isMapping: Bool
        let line: Int
        let column: Int

        init(isMapping: Bool, _ mark: Mark?) {
            self.isMapping = isMapping
            (line, column) = (mark?.line ?? 0, mark?.column ?? 0)
        }
    }
}
