package cli

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// --person goes with record start only, and its wait is positive: a
// usage error before any browser is reached.
func TestRecordPersonUsage(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"record", "stop", "--person"}, "--person goes with grip record start FILE"},
		{[]string{"record", "status", "--person"}, "--person goes with grip record start FILE"},
		{[]string{"record", "start", "x.grip", "--person", "--timeout", "0s"}, "positive --timeout"},
		{[]string{"record", "start", "x.grip", "--person", "--timeout", "-1m"}, "positive --timeout"},
	} {
		var out, errb bytes.Buffer
		a := &App{Args: c.args, Stdout: &out, Stderr: &errb}
		if code := a.Run(context.Background()); code != ExitUsage || !strings.Contains(errb.String(), c.want) {
			t.Errorf("grip %s: exit %d, stderr %q", strings.Join(c.args, " "), code, errb.String())
		}
	}
}
