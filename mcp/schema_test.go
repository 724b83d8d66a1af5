package mcp

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

type schemaProbe struct {
	target
	Name   string            `json:"name" jsonschema:"a name"`
	Count  int               `json:"count,omitempty"`
	Ratio  float64           `json:"ratio,omitempty"`
	On     bool              `json:"on,omitempty"`
	Index  *int              `json:"index,omitempty"`
	Tags   []string          `json:"tags,omitempty"`
	Fields []formField       `json:"fields,omitempty"`
	Params map[string]string `json:"params,omitempty"`
	Skip   string            `json:"-"`
}

func probeSchema(t testing.TB) *Schema {
	t.Helper()
	s, err := schemaFor(reflect.TypeFor[schemaProbe]())
	if err != nil {
		t.Fatal(err)
	}
	s.Properties["count"].Minimum = ptr(1.0)
	s.Properties["tags"].MinItems = ptr(1)
	s.Properties["name"].Enum = []any{"a", "b"}
	s.Properties["ratio"].Maximum = ptr(1.0)
	s.Properties["ref"].MinLength = ptr(2)
	return s
}

// schemaCases are arguments as a model sends them, and the property the
// refusal must name ("" for arguments that fit).
var schemaCases = []struct {
	args string
	want string
}{
	{`{"ref":"@e1","name":"a"}`, ""},
	{`{"ref":"@e1","name":"b","count":3,"ratio":0.5,"on":true,"index":null,"tags":["x"],"params":{"A":"1"}}`, ""},
	{`{"ref":"@e1","name":"a","index":0,"fields":[{"name":"n","type":"textbox","ref":"@e2","value":"v"}]}`, ""},
	{`{"name":"a"}`, `"ref"`},
	{`{"ref":"@","name":"a"}`, `"ref"`},
	{`{"ref":"@e1","name":"a","ratio":1.5}`, `"ratio"`},
	{`{"ref":"@e1"}`, `"name"`},
	{`{"ref":"@e1","name":"c"}`, `"name"`},
	{`{"ref":"@e1","name":"a","count":0}`, `"count"`},
	{`{"ref":"@e1","name":"a","count":1.5}`, `"count"`},
	{`{"ref":"@e1","name":"a","count":"3"}`, `"count"`},
	{`{"ref":"@e1","name":"a","on":"yes"}`, `"on"`},
	{`{"ref":"@e1","name":"a","tags":[]}`, `"tags"`},
	{`{"ref":"@e1","name":"a","tags":[1]}`, `"tags[0]"`},
	{`{"ref":"@e1","name":"a","tags":null}`, `"tags"`},
	{`{"ref":"@e1","name":"a","fields":[{"name":"n"}]}`, `"fields[0]"`},
	{`{"ref":"@e1","name":"a","params":{"A":1}}`, `"params.A"`},
	{`{"ref":"@e1","name":"a","button":"right"}`, `"button"`},
	{`{"ref":"@e1","name":"a","Skip":"x"}`, `"Skip"`},
}

func TestSchemaValidate(t *testing.T) {
	s := probeSchema(t)
	for _, tc := range schemaCases {
		var v any
		if err := json.Unmarshal([]byte(tc.args), &v); err != nil {
			t.Fatal(err)
		}
		err := s.validate(v, "")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: refused: %v", tc.args, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want one naming %s", tc.args, err, tc.want)
		}
	}
}

// TestSchemaJSON: what tools/list shows of an inferred schema.
func TestSchemaJSON(t *testing.T) {
	b, err := json.Marshal(probeSchema(t))
	if err != nil {
		t.Fatal(err)
	}
	var got map[string]any
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatal(err)
	}
	if got["type"] != "object" || got["additionalProperties"] != false {
		t.Errorf("root: %s", b)
	}
	props := got["properties"].(map[string]any)
	want := map[string]string{"ref": "string", "name": "string", "count": "integer", "ratio": "number", "on": "boolean",
		"index": "integer", "tags": "array", "fields": "array", "params": "object"}
	for name, typ := range want {
		p, _ := props[name].(map[string]any)
		if p == nil || p["type"] != typ {
			t.Errorf("property %s: %v, want type %s", name, props[name], typ)
		}
	}
	if _, ok := props["Skip"]; ok || len(props) != len(want)+1 { // + element
		t.Errorf("properties %v", props)
	}
	if d := props["name"].(map[string]any)["description"]; d != "a name" {
		t.Errorf("description %v", d)
	}
	if r := got["required"].([]any); len(r) != 2 || r[0] != "ref" || r[1] != "name" {
		t.Errorf("required %v", r)
	}
	if a := props["params"].(map[string]any)["additionalProperties"].(map[string]any); a["type"] != "string" {
		t.Errorf("params values %v", a)
	}
}

// FuzzSchemaValidate: no arguments make validate panic.
func FuzzSchemaValidate(f *testing.F) {
	for _, tc := range schemaCases {
		f.Add(tc.args)
	}
	s := probeSchema(f)
	f.Fuzz(func(t *testing.T, args string) {
		var v any
		if json.Unmarshal([]byte(args), &v) != nil {
			return
		}
		_ = s.validate(v, "")
	})
}
