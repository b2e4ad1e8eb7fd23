// Every document API throws `DocumentError` and reports `DocumentWarning`s, which live in
// EaselSupport (the file and JSON readers at the bottom of the house produce them). They are
// re-exported so that `import EaselDocuments` is all a library user needs; EaselSupport's
// helpers stay `package` and are not visible outside Easel's own targets.
@_exported import EaselSupport
