package mcp

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
)

// Schema is the JSON Schema of a tool's input, the part of the standard
// grip's tools use: inferred from the input's Go type by schemaFor,
// refined by each tool's tweak, and checked by validate before a handler
// sees the arguments. grip writes its own rather than linking a JSON
// Schema library: that library's package init (reflection over its own
// schema type, a regexp) ran in every start of the one grip binary, about
// a quarter of the CLI's instructions (docs/cli-cost.md, "The CLI's
// fixed cost").
type Schema struct {
	Type        string             `json:"type,omitempty"`
	Description string             `json:"description,omitempty"`
	Enum        []any              `json:"enum,omitempty"`
	Minimum     *float64           `json:"minimum,omitempty"`
	Maximum     *float64           `json:"maximum,omitempty"`
	MinLength   *int               `json:"minLength,omitempty"`
	Items       *Schema            `json:"items,omitempty"`
	MinItems    *int               `json:"minItems,omitempty"`
	Properties  map[string]*Schema `json:"properties,omitempty"`
	Required    []string           `json:"required,omitempty"`
	// AdditionalProperties is false to refuse a property the object does
	// not name (a misspelt field), or the *Schema of every property (a
	// map); nil allows any.
	AdditionalProperties any `json:"additionalProperties,omitempty"`
	// nullable: a Go pointer, which JSON null leaves unset.
	nullable bool
}

// schemaFor infers the schema of t as encoding/json reads it: a struct is
// an object of its exported fields (embedded structs' fields promoted),
// named by their json tags, described by their jsonschema tags, required
// unless omitempty or omitzero, and closed to other properties.
func schemaFor(t reflect.Type) (*Schema, error) {
	s := &Schema{}
	if t.Kind() == reflect.Pointer {
		s.nullable = true
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		s.Type = "string"
	case reflect.Bool:
		s.Type = "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		s.Type = "integer"
	case reflect.Float32, reflect.Float64:
		s.Type = "number"
	case reflect.Slice, reflect.Array:
		s.Type = "array"
		items, err := schemaFor(t.Elem())
		if err != nil {
			return nil, err
		}
		s.Items = items
	case reflect.Map:
		if t.Key().Kind() != reflect.String {
			return nil, fmt.Errorf("no schema for Go type %s", t)
		}
		s.Type = "object"
		values, err := schemaFor(t.Elem())
		if err != nil {
			return nil, err
		}
		s.AdditionalProperties = values
	case reflect.Interface:
		// any value
	case reflect.Struct:
		s.Type = "object"
		s.Properties = map[string]*Schema{}
		s.AdditionalProperties = false
		for _, f := range reflect.VisibleFields(t) {
			if !f.IsExported() || f.Anonymous && f.Type.Kind() == reflect.Struct {
				continue
			}
			name, opts, _ := strings.Cut(f.Tag.Get("json"), ",")
			if name == "-" {
				continue
			}
			if name == "" {
				name = f.Name
			}
			p, err := schemaFor(f.Type)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", name, err)
			}
			p.Description = f.Tag.Get("jsonschema")
			s.Properties[name] = p
			if !slices.Contains(strings.Split(opts, ","), "omitempty") && !slices.Contains(strings.Split(opts, ","), "omitzero") {
				s.Required = append(s.Required, name)
			}
		}
	default:
		return nil, fmt.Errorf("no schema for Go type %s", t)
	}
	return s, nil
}

// validate checks v, a value encoding/json decoded into any, against s;
// the error names the property that does not fit.
func (s *Schema) validate(v any, at string) error {
	where := func() string {
		if at == "" {
			return "the arguments"
		}
		return fmt.Sprintf("%q", at)
	}
	if v == nil {
		if s.nullable || s.Type == "" {
			return nil
		}
		return fmt.Errorf("%s: null is not a %s", where(), s.Type)
	}
	switch s.Type {
	case "string":
		str, ok := v.(string)
		if !ok {
			return fmt.Errorf("%s: want a string, got %s", where(), jsonKind(v))
		}
		if s.MinLength != nil && utf8.RuneCountInString(str) < *s.MinLength {
			return fmt.Errorf("%s: shorter than %d characters", where(), *s.MinLength)
		}
	case "boolean":
		if _, ok := v.(bool); !ok {
			return fmt.Errorf("%s: want a boolean, got %s", where(), jsonKind(v))
		}
	case "integer", "number":
		n, ok := v.(float64)
		if !ok || s.Type == "integer" && n != math.Trunc(n) {
			return fmt.Errorf("%s: want %s, got %s", where(), map[string]string{"integer": "an integer", "number": "a number"}[s.Type], jsonKind(v))
		}
		if s.Minimum != nil && n < *s.Minimum {
			return fmt.Errorf("%s: %v is less than the minimum %v", where(), n, *s.Minimum)
		}
		if s.Maximum != nil && n > *s.Maximum {
			return fmt.Errorf("%s: %v is more than the maximum %v", where(), n, *s.Maximum)
		}
	case "array":
		list, ok := v.([]any)
		if !ok {
			return fmt.Errorf("%s: want an array, got %s", where(), jsonKind(v))
		}
		if s.MinItems != nil && len(list) < *s.MinItems {
			return fmt.Errorf("%s: %d items, want at least %d", where(), len(list), *s.MinItems)
		}
		if s.Items != nil {
			for i, e := range list {
				if err := s.Items.validate(e, fmt.Sprintf("%s[%d]", at, i)); err != nil {
					return err
				}
			}
		}
	case "object":
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %s", where(), jsonKind(v))
		}
		for _, name := range s.Required {
			if _, ok := m[name]; !ok {
				return fmt.Errorf("%s: missing property %q", where(), name)
			}
		}
		names := make([]string, 0, len(m))
		for name := range m {
			names = append(names, name)
		}
		slices.Sort(names) // the same error for the same arguments
		for _, name := range names {
			p, ok := s.Properties[name]
			if !ok {
				switch extra := s.AdditionalProperties.(type) {
				case bool:
					if !extra {
						return fmt.Errorf("%s: unexpected property %q", where(), name)
					}
					continue
				case *Schema:
					p = extra
				default:
					continue
				}
			}
			if err := p.validate(m[name], strings.TrimPrefix(at+"."+name, ".")); err != nil {
				return err
			}
		}
	}
	if len(s.Enum) > 0 && !slices.Contains(s.Enum, v) {
		return fmt.Errorf("%s: %v is not one of %v", where(), v, s.Enum)
	}
	return nil
}

// jsonKind names the JSON type of a decoded value, for errors.
func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case []any:
		return "an array"
	case map[string]any:
		return "an object"
	}
	return "null"
}
