package protocol_test

import (
	"strings"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestOperationRows pins what each operation reads and whether it acts:
// the row decides the gate a request passes (host/gate.go), so changing
// one is a decision about the person's say, not a detail.
func TestOperationRows(t *testing.T) {
	type what struct {
		reads protocol.Reach
		acts  bool
	}
	want := map[string]what{
		protocol.OpHello: {protocol.ReachNone, false}, protocol.OpStatus: {protocol.ReachNone, false},
		protocol.OpCancel: {protocol.ReachNone, false}, protocol.OpRecord: {protocol.ReachNone, false},
		protocol.OpPause: {protocol.ReachNone, false}, protocol.OpResume: {protocol.ReachNone, false},
		protocol.OpLog: {protocol.ReachNone, false}, protocol.OpPolicy: {protocol.ReachNone, false},
		protocol.OpTabs: {protocol.ReachList, false}, protocol.OpDownloads: {protocol.ReachList, false},
		protocol.OpNetworkBody: {protocol.ReachList, false},
		protocol.OpDialog:      {protocol.ReachTab, false}, protocol.OpRead: {protocol.ReachTab, false},
		protocol.OpHandoff:  {protocol.ReachTab, false},
		protocol.OpSnapshot: {protocol.ReachContent, false}, protocol.OpConsole: {protocol.ReachContent, false},
		protocol.OpNetwork: {protocol.ReachContent, false},
		protocol.OpWait:    {protocol.ReachEveryFrame, false}, protocol.OpScreenshot: {protocol.ReachEveryFrame, false},
		protocol.OpPDF: {protocol.ReachEveryFrame, false}, protocol.OpScreenshotShape: {protocol.ReachEveryFrame, false},
		protocol.OpAct: {protocol.ReachTab, true}, protocol.OpEval: {protocol.ReachTab, true},
		protocol.OpResize: {protocol.ReachTab, true},
	}
	rows := protocol.Operations()
	if len(rows) != len(want) {
		t.Errorf("%d rows, %d pinned: pin the new one here", len(rows), len(want))
	}
	for _, row := range rows {
		w, ok := want[row.Name]
		if !ok {
			t.Errorf("%s is not pinned", row.Name)
			continue
		}
		if row.Reads != w.reads || row.Acts != w.acts {
			t.Errorf("%s reads %s, acts %v; pinned %s, %v", row.Name, row.Reads, row.Acts, w.reads, w.acts)
		}
		if row.Acts && (row.ReadOnly || row.Retry) {
			t.Errorf("%s acts, and is read-only or retried", row.Name)
		}
	}
}

// TestFileArgumentsExist: the arguments a row says name files are fields
// of its Args type, by their json names.
func TestFileArgumentsExist(t *testing.T) {
	named := 0
	for _, row := range protocol.Operations() {
		for _, arg := range []string{row.Writes, row.Sends} {
			if arg == "" {
				continue
			}
			named++
			found := false
			for i := range row.Args.NumField() {
				if strings.Split(row.Args.Field(i).Tag.Get("json"), ",")[0] == arg {
					found = true
				}
			}
			if !found {
				t.Errorf("%s names the file argument %q, which %v does not have", row.Name, arg, row.Args)
			}
		}
	}
	if named < 2 {
		t.Errorf("only %d file arguments named: record's file and act's files at least", named)
	}
}
