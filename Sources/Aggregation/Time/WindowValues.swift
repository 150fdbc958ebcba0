/// A value per window, at most one for each of the four: what a `[Window: Value]` dictionary
/// held, stored inline.
///
/// A released layer holds several of these for every area: as dictionaries they were a heap
/// allocation each, and the public release of 300,000 areas took 235 MB. Reads, writes,
/// iteration (in `Window.allCases` order) and literals work as they do on the dictionary.
public struct WindowValues<Value>: Sequence, ExpressibleByDictionaryLiteral {
    private var d7: Value?, d14: Value?, d28: Value?, all: Value?

    public init() {}

    /// For call sites written for a dictionary; there is nothing to reserve.
    public init(minimumCapacity: Int) {}

    public init(dictionaryLiteral elements: (Window, Value)...) {
        for (window, value) in elements { self[window] = value }
    }

    public subscript(window: Window) -> Value? {
        get {
            switch window {
            case .d7: d7
            case .d14: d14
            case .d28: d28
            case .all: all
            }
        }
        set {
            switch window {
            case .d7: d7 = newValue
            case .d14: d14 = newValue
            case .d28: d28 = newValue
            case .all: all = newValue
            }
        }
    }

    /// The windows that have a value, in `Window.allCases` order.
    public var keys: [Window] { Window.allCases.filter { self[$0] != nil } }
    public var values: [Value] { Window.allCases.compactMap { self[$0] } }
    public var count: Int { keys.count }
    public var isEmpty: Bool { d7 == nil && d14 == nil && d28 == nil && all == nil }

    public func mapValues<T>(_ transform: (Value) throws -> T) rethrows -> WindowValues<T> {
        var out = WindowValues<T>()
        for (window, value) in self { out[window] = try transform(value) }
        return out
    }

    public func makeIterator() -> Iterator { Iterator(values: self) }

    /// Windows with a value, in `Window.allCases` order.
    public struct Iterator: IteratorProtocol {
        let values: WindowValues
        var position = 0

        public mutating func next() -> (key: Window, value: Value)? {
            while position < Window.allCases.count {
                let window = Window.allCases[position]
                position += 1
                if let value = values[window] { return (key: window, value: value) }
            }
            return nil
        }
    }
}

extension WindowValues: Equatable where Value: Equatable {}
extension WindowValues: Hashable where Value: Hashable {}
extension WindowValues: Sendable where Value: Sendable {}
