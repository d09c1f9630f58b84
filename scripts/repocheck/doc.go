// Package repocheck holds tests of the repository itself (not of its code): what git tracks.
// `go test ./scripts/...` (and so `make test`) runs them.
package repocheck
