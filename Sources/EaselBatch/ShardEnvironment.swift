import FoundationEssentials

/// Which shard a scheduler's task is, read from the variables each engine sets
/// (`--shard auto`): a Slurm array task (`SLURM_ARRAY_TASK_ID` from `SLURM_ARRAY_TASK_MIN`,
/// `SLURM_ARRAY_TASK_COUNT` of them), a Kubernetes Indexed Job's pod (`JOB_COMPLETION_INDEX`
/// from 0, with the count from `--shard-count` or `EASEL_SHARD_COUNT`, which the Job sets to
/// its `completions`), or a plain `EASEL_SHARD=K/N`. Exactly one of them must be there.
public enum ShardEnvironment {
    /// The variables that say which shard a task is, by the engine that sets them.
    public static let sources = ["EASEL_SHARD", "SLURM_ARRAY_TASK_ID", "JOB_COMPLETION_INDEX"]

    /// The shard `environment` names; `count` is the shard count given on the command line
    /// (for an Indexed Job). Throws, saying what is wrong, when no engine's variables are
    /// there, when several are (ambiguous), or when they do not make a shard.
    public static func shard(from environment: [String: String], count: Int? = nil) throws(BatchError) -> Shard {
        let present = sources.filter { environment[$0] != nil }
        guard let source = present.first else {
            throw BatchError(
                message:
                    "--shard auto found no scheduler's variables: run it in a Slurm array job or a Kubernetes Indexed Job, or set EASEL_SHARD=K/N"
            )
        }
        guard present.count == 1 else {
            throw BatchError(
                message:
                    "--shard auto is ambiguous: \(present.joined(separator: " and ")) are all set; unset all but one, or give --shard K/N"
            )
        }
        func number(_ name: String) throws(BatchError) -> Int {
            guard let text = environment[name] else {
                throw BatchError(message: "--shard auto: \(source) is set but \(name) is not")
            }
            guard let value = Int(text.trimmingWhitespace), value >= 0, value <= 1_000_000 else {
                throw BatchError(message: "--shard auto: \(name) must be a whole number from 0 to 1000000, not \"\(text)\"")
            }
            return value
        }
        let made: Shard?
        switch source {
        case "EASEL_SHARD":
            let text = environment[source] ?? ""
            guard let shard = Shard(parsing: text) else {
                throw BatchError(message: "--shard auto: EASEL_SHARD must be K/N with 1 ≤ K ≤ N, such as 2/8, not \"\(text)\"")
            }
            made = shard
        case "SLURM_ARRAY_TASK_ID":
            let id = try number("SLURM_ARRAY_TASK_ID"), first = try number("SLURM_ARRAY_TASK_MIN")
            let tasks = try number("SLURM_ARRAY_TASK_COUNT")
            let last = environment["SLURM_ARRAY_TASK_MAX"] == nil ? nil : try number("SLURM_ARRAY_TASK_MAX")
            if let last, last - first + 1 != tasks {
                throw BatchError(
                    message:
                        "--shard auto: the Slurm array \(first)-\(last) has \(tasks) tasks, not one per index; give it with no step (--array=\(first)-\(first + tasks - 1)), or give --shard K/N"
                )
            }
            made = Shard(index: id - first + 1, count: tasks)
        default:
            let index = try number("JOB_COMPLETION_INDEX")
            var total = count
            if total == nil, environment["EASEL_SHARD_COUNT"] != nil { total = try number("EASEL_SHARD_COUNT") }
            guard let total else {
                throw BatchError(
                    message:
                        "--shard auto: JOB_COMPLETION_INDEX is set but not how many indexes there are; set EASEL_SHARD_COUNT to the Job's completions, or give --shard-count N"
                )
            }
            made = Shard(index: index + 1, count: total)
        }
        guard let made else {
            throw BatchError(
                message: "--shard auto: \(source) does not name a shard within the count (\(environment[source] ?? ""))")
        }
        return made
    }
}
