/// Facts about the harness itself, for reports.
public enum Harness {
    public static let version = "0.1.0"
}
