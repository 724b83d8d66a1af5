package workflow

import (
	"testing"

	"github.com/grip-dev/grip/internal/apilist"
)

// TestAPI holds the package's exported API to api.txt: what Go programs
// outside grip build on changes only on purpose (README.md, "A runner in
// Go").
func TestAPI(t *testing.T) { apilist.Check(t, "api.txt") }
