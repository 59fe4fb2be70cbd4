import CFerrySystem

/// The cores a run may use.
package enum Cores {
    /// The cores this process may run on: its CPU set (`sched_getaffinity`),
    /// which a container or a job scheduler narrows, not every core online.
    /// The default of `--jobs`.
    package static let usable = Int(ferry_usable_cores())
}
