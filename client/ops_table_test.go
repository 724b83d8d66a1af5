package client

import (
	"context"
	"reflect"
	"testing"

	"github.com/grip-dev/grip/protocol"
)

// TestOpsAreTheTablesTypes calls every method of Ops against a Caller
// that records what it is asked: each sends an operation of
// protocol.Operations with that row's argument type and decodes into its
// result type, and every row but the client's own (hello, cancel) has a
// method, so the typed surface cannot drift from the table.
func TestOpsAreTheTablesTypes(t *testing.T) {
	type sent struct {
		op           string
		args, result reflect.Type
	}
	var got []sent
	rec := CallerFunc(func(_ context.Context, op string, args, result any) error {
		got = append(got, sent{op, reflect.TypeOf(args), reflect.TypeOf(result)})
		return nil
	})
	ops := reflect.ValueOf(Ops{rec})
	reached := map[string]bool{}
	for i := range ops.NumMethod() {
		m, f := ops.Type().Method(i), ops.Method(i)
		if m.Name == "Call" {
			continue // the Caller's own, which every method goes through
		}
		ft := f.Type()
		in := []reflect.Value{reflect.ValueOf(context.Background())}
		for j := 1; j < ft.NumIn(); j++ { // the method's own parameters, after ctx
			in = append(in, reflect.Zero(ft.In(j)))
		}
		got = nil
		if ft.IsVariadic() {
			f.CallSlice(in)
		} else {
			f.Call(in)
		}
		for _, s := range got {
			row, ok := protocol.OperationNamed(s.op)
			if !ok {
				t.Errorf("Ops.%s sends %q, no row of protocol.Operations", m.Name, s.op)
				continue
			}
			reached[s.op] = true
			empty := s.args != nil && s.args.Kind() == reflect.Struct && s.args.NumField() == 0
			if s.args != row.Args && !(empty && row.Args.NumField() == 0) {
				t.Errorf("Ops.%s sends %s with %v, its row says %v", m.Name, s.op, s.args, row.Args)
			}
			if s.result != reflect.PointerTo(row.Result) {
				t.Errorf("Ops.%s decodes %s into %v, its row says %v", m.Name, s.op, s.result, row.Result)
			}
		}
	}
	for _, row := range protocol.Operations() {
		if !reached[row.Name] && row.Name != protocol.OpHello && row.Name != protocol.OpCancel {
			t.Errorf("no method of Ops sends %s", row.Name)
		}
	}
}
