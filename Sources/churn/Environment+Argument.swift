import AppStoreNotifications
import ArgumentParser

/// `--environment`: Apple's names in any case (`production`, `Sandbox`, `SANDBOX`); anything else, such as `prod`,
/// is bad usage rather than a silent report on no episodes.
extension Environment: NameArgument {}
