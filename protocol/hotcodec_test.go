package protocol

import (
	"bytes"
	"fmt"
	"reflect"
	"testing"

	"github.com/vmihailenco/msgpack/v5"
)

// hotTypes pairs each type with a hand codec (protocol/hotcodec.go) with
// its plain twin, which the library encodes and decodes by reflection.
var hotTypes = []struct {
	name      string
	value     func() any // a new *T
	plain     func() any // a new *plainT
	asPlain   func(v any) any
	fromPlain func(v any) any
}{
	{"Request", func() any { return new(Request) }, func() any { return new(plainRequest) },
		func(v any) any { return (*plainRequest)(v.(*Request)) }, func(v any) any { return (*Request)(v.(*plainRequest)) }},
	{"Reply", func() any { return new(Reply) }, func() any { return new(plainReply) },
		func(v any) any { return (*plainReply)(v.(*Reply)) }, func(v any) any { return (*Reply)(v.(*plainReply)) }},
	{"HelloArgs", func() any { return new(HelloArgs) }, func() any { return new(plainHelloArgs) },
		func(v any) any { return (*plainHelloArgs)(v.(*HelloArgs)) }, func(v any) any { return (*HelloArgs)(v.(*plainHelloArgs)) }},
	{"HostInfo", func() any { return new(HostInfo) }, func() any { return new(plainHostInfo) },
		func(v any) any { return (*plainHostInfo)(v.(*HostInfo)) }, func(v any) any { return (*HostInfo)(v.(*plainHostInfo)) }},
	{"LaunchedBrowser", func() any { return new(LaunchedBrowser) }, func() any { return new(plainLaunchedBrowser) },
		func(v any) any { return (*plainLaunchedBrowser)(v.(*LaunchedBrowser)) }, func(v any) any { return (*LaunchedBrowser)(v.(*plainLaunchedBrowser)) }},
	{"TabsResult", func() any { return new(TabsResult) }, func() any { return new(plainTabsResult) },
		func(v any) any { return (*plainTabsResult)(v.(*TabsResult)) }, func(v any) any { return (*TabsResult)(v.(*plainTabsResult)) }},
	{"Tab", func() any { return new(Tab) }, func() any { return new(plainTab) },
		func(v any) any { return (*plainTab)(v.(*Tab)) }, func(v any) any { return (*Tab)(v.(*plainTab)) }},
	{"Error", func() any { return new(Error) }, func() any { return new(plainError) },
		func(v any) any { return (*plainError)(v.(*Error)) }, func(v any) any { return (*Error)(v.(*plainError)) }},
}

// fill sets every field of the struct v points at to a value that is not
// zero, recursing into structs, pointers and slices (one element), so a
// field the hand codec leaves out changes the bytes.
func fill(v reflect.Value, seed int) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		fill(v.Elem(), seed)
	case reflect.Struct:
		for i := range v.NumField() {
			fill(v.Field(i), seed+i+1)
		}
	case reflect.Slice:
		if v.Type() == reflect.TypeOf(msgpack.RawMessage(nil)) {
			raw, _ := Marshal(fmt.Sprintf("raw %d", seed))
			v.SetBytes(raw)
			return
		}
		s := reflect.MakeSlice(v.Type(), 1, 1)
		fill(s.Index(0), seed)
		v.Set(s)
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", seed))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(seed) * 1000)
	case reflect.Uint64:
		v.SetUint(uint64(seed) << 40)
	case reflect.Float64:
		v.SetFloat(float64(seed) + 0.5)
	default:
		panic("fill: add kind " + v.Kind().String())
	}
}

// TestHotCodecsAreTheLibrarys holds each hand codec to the library's
// reflection: the same bytes for a zero value and for one with every field
// set, and those bytes decoded back to the same value.
func TestHotCodecsAreTheLibrarys(t *testing.T) {
	for _, ht := range hotTypes {
		t.Run(ht.name, func(t *testing.T) {
			for _, full := range []bool{false, true} {
				v := ht.value()
				if full {
					fill(reflect.ValueOf(v), 0)
				}
				got, err := Marshal(v)
				if err != nil {
					t.Fatal(err)
				}
				want, err := Marshal(ht.asPlain(v))
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("full=%v: hand codec wrote %x, the library %x: a field is missing or written differently in protocol/hotcodec.go", full, got, want)
				}
				back := ht.value()
				if err := Unmarshal(got, back); err != nil {
					t.Fatal(err)
				}
				if !reflect.DeepEqual(back, v) {
					t.Fatalf("full=%v: decoded %+v, want %+v", full, back, v)
				}
			}
		})
	}
}

// FuzzHotCodecs holds decoding equal to the library's on any bytes: both
// refuse them, or both decode the same value, which encodes to the same
// bytes both ways.
func FuzzHotCodecs(f *testing.F) {
	for _, ht := range hotTypes {
		v := ht.value()
		fill(reflect.ValueOf(v), 0)
		raw, _ := Marshal(v)
		f.Add(raw)
		raw, _ = Marshal(ht.value())
		f.Add(raw)
	}
	arr, _ := msgpack.Marshal([]any{uint64(1), "op", nil})
	f.Add(arr)
	f.Add([]byte{0xc0})
	f.Add([]byte{0x81, 0xa4, 't', 'a', 'b', 's', 0x90})
	f.Fuzz(func(t *testing.T, raw []byte) {
		for _, ht := range hotTypes {
			hand, plain := ht.value(), ht.plain()
			herr := Unmarshal(raw, hand)
			perr := Unmarshal(raw, plain)
			if (herr == nil) != (perr == nil) {
				t.Fatalf("%s: hand codec says %v, the library %v, on %x", ht.name, herr, perr, raw)
			}
			if herr != nil {
				continue
			}
			if !reflect.DeepEqual(hand, ht.fromPlain(plain)) {
				t.Fatalf("%s: hand codec decoded %+v, the library %+v, from %x", ht.name, hand, plain, raw)
			}
			a, aerr := Marshal(hand)
			b, berr := Marshal(plain)
			if (aerr == nil) != (berr == nil) || !bytes.Equal(a, b) {
				t.Fatalf("%s: re-encoded %x (%v), the library %x (%v)", ht.name, a, aerr, b, berr)
			}
		}
	})
}
