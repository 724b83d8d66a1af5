package mcp

import (
	"context"
	"fmt"
	"strings"

	"github.com/grip-dev/grip/protocol"
)

// browser_fill_form sets several fields in one call, as Playwright MCP's
// tool of that name does: agents trained on it use it, and one reply for a
// form costs far fewer tokens than one per field. Each field is an
// ordinary grip action (fill, select, check), with the same checks; the
// first refusal stops the form and says which fields were set before it.

// Only ref and value are required: name is for the reply, and a field
// without a type is set as its role says (fieldType), so Playwright MCP's
// calls and shorter ones both work.
type formField struct {
	Name  string `json:"name,omitempty" jsonschema:"For the reply only"`
	Type  string `json:"type,omitempty" jsonschema:"Default: the field's role"`
	Ref   string `json:"ref" jsonschema:"Target"`
	Value string `json:"value" jsonschema:"checkbox, radio: true or false; combobox: an option's label or value"`
}

type fillFormIn struct {
	Fields []formField `json:"fields" jsonschema:"In order"`
	tabIn
}

func addFormTool(s *Server) {
	addTool(s, &Tool{Name: "browser_fill_form", ops: []string{protocol.OpAct, protocol.OpRead},
		Description: "Set several fields in one call (fill, check, select); the first refused stops it, saying which were set." + actReply},
		func(p map[string]*Schema) {
			p["fields"].MinItems = ptr(1)
			if f := p["fields"].Items; f != nil && f.Properties["type"] != nil {
				f.Properties["type"].Enum = []any{"textbox", "checkbox", "radio", "combobox", "slider"}
			}
		}, s.fillForm)
}

// formAction is the grip action that sets one field.
func formAction(f formField, tab int) (protocol.ActArgs, error) {
	args := actArgs("", target{Ref: f.Ref}, actOpts{tabIn: tabIn{tab}}, false)
	switch f.Type {
	case "textbox", "slider":
		args.Action, args.Text = protocol.ActFill, f.Value
	case "combobox":
		args.Action, args.Text = protocol.ActSelect, f.Value
	case "checkbox", "radio":
		switch strings.ToLower(strings.TrimSpace(f.Value)) {
		case "true", "checked", "on", "yes":
			args.Action = protocol.ActCheck
		case "false", "unchecked", "off", "no":
			if f.Type == "radio" {
				return args, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
					"check another radio of the group instead", "field %q: a radio cannot be unchecked", f.Name)
			}
			args.Action = protocol.ActUncheck
		default:
			return args, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
				"give true or false", "field %q: %q is not true or false", f.Name, f.Value)
		}
	default:
		return args, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"type is one of textbox, checkbox, radio, combobox, slider", "field %q: unknown type %q", f.Name, f.Type)
	}
	return args, nil
}

// formTypes maps the roles a form's fields have to the type that sets
// them (formAction).
var formTypes = map[string]string{
	"textbox": "textbox", "searchbox": "textbox", "spinbutton": "textbox", "slider": "slider",
	"combobox": "combobox", "listbox": "combobox", "checkbox": "checkbox", "switch": "checkbox", "radio": "radio",
}

// fieldType is the type of a field given without one: its role, as the
// host has its line (the ref's last snapshot line, or the page's now).
func (s *Server) fieldType(ctx context.Context, f formField, tab int) (string, error) {
	res, err := s.ops.Read(ctx, protocol.ReadArgs{Target: normRef(f.Ref), Tab: tab, Budget: 1})
	if err != nil {
		return "", err
	}
	role := res.Line
	if i := strings.IndexByte(role, '['); i >= 0 {
		role = role[i+1:]
	}
	if i := strings.IndexAny(role, " ]"); i >= 0 {
		role = role[:i]
	}
	t, ok := formTypes[role]
	if !ok {
		return "", protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload,
			"give the field a type (textbox, checkbox, radio, combobox, slider), or use browser_click or browser_type on it",
			"field %s: a %s is not a form field", named(normRef(f.Ref), f.Name), res.Line)
	}
	return t, nil
}

func (s *Server) fillForm(ctx context.Context, in fillFormIn) (*CallToolResult, error) {
	if len(in.Fields) == 0 {
		return nil, protocol.Errorf(protocol.CodeBadRequest, protocol.BoundaryPayload, "pass fields: [{ref, value}], each with an optional name and type", "no fields to fill")
	}
	// Every field is checked before any is set: a typo in the last one
	// must not leave the form half filled.
	all := make([]protocol.ActArgs, len(in.Fields))
	for i, f := range in.Fields {
		if f.Type == "" {
			t, err := s.fieldType(ctx, f, in.Tab)
			if err != nil {
				return nil, err
			}
			f.Type = t
		}
		args, err := formAction(f, in.Tab)
		if err != nil {
			return nil, err
		}
		all[i] = args
	}
	var done []string
	var results []protocol.ActionResult
	for i, args := range all {
		res, err := s.doAct(ctx, args)
		if err != nil {
			pe := protocol.AsError(err)
			set := "none was set"
			if len(done) > 0 {
				set = "set before it: " + strings.Join(done, ", ")
			}
			pe.Message = fmt.Sprintf("field %d of %d (%s) refused, %s: %s", i+1, len(all), named(args.Target, in.Fields[i].Name), set, pe.Message)
			return nil, pe
		}
		results = append(results, res)
		done = append(done, named(args.Target, in.Fields[i].Name))
		if navigated := res.Changes.URL != "" && res.Changes.URL != res.Tab.URL; res.Dialog != nil || navigated {
			// The page went somewhere else or waits for an answer: the
			// other fields' refs may no longer mean what they did.
			if i < len(all)-1 {
				done = append(done, fmt.Sprintf("then stopped: %d field(s) not set", len(all)-1-i))
			}
			break
		}
	}
	// When every field was set, the changed lines below name them.
	what := fmt.Sprintf("Filled %d of %d fields", len(results), len(all))
	if len(results) < len(all) {
		what += ": " + strings.Join(done, ", ")
	}
	return textResult(s.actionText(what, mergeResults(results))), nil
}

// mergeResults is one reply for a run of actions on a tab: the last tab
// and dialog, each element's last changed line, the lines that appeared
// (and still are), the runs of lines that changed only their context, the
// refs gone.
func mergeResults(rs []protocol.ActionResult) protocol.ActionResult {
	var out protocol.ActionResult
	changed := map[string]int{}
	appeared := map[string]int{}
	gone := map[string]bool{} // gone, and not back since
	var goneOrder []string
	// A context run puts its new context on the lines the merged reply
	// lists already; of the others, each ref's first and last context.
	type move struct{ from, to string }
	moved := map[string]move{}
	var movedOrder []string
	var runs []protocol.ContextChange
	withRuns := 0
	for _, r := range rs {
		out.OK, out.Tab, out.Dialog = r.OK, r.Tab, r.Dialog
		if r.Changes.URL != "" {
			out.Changes.URL, out.Changes.Title = r.Changes.URL, r.Changes.Title
		}
		if len(r.Changes.Contexts) > 0 {
			withRuns++
		}
		for _, m := range r.Changes.Contexts {
			runs = append(runs, m)
			for _, ref := range m.Refs {
				if i, ok := appeared[ref]; ok {
					out.Changes.Appeared[i].Context = m.To
				} else if i, ok := changed[ref]; ok {
					out.Changes.Changed[i].Context = m.To
				} else if mv, ok := moved[ref]; ok {
					moved[ref] = move{mv.from, m.To}
				} else {
					moved[ref] = move{m.From, m.To}
					movedOrder = append(movedOrder, ref)
				}
			}
		}
		for _, e := range r.Changes.Changed {
			delete(moved, e.Ref) // its whole line says it now
			if i, ok := appeared[e.Ref]; ok {
				out.Changes.Appeared[i] = e
			} else if i, ok := changed[e.Ref]; ok {
				out.Changes.Changed[i] = e
			} else {
				changed[e.Ref] = len(out.Changes.Changed)
				out.Changes.Changed = append(out.Changes.Changed, e)
			}
		}
		for _, e := range r.Changes.Appeared {
			delete(gone, e.Ref)
			if i, ok := appeared[e.Ref]; ok {
				out.Changes.Appeared[i] = e
				continue
			}
			appeared[e.Ref] = len(out.Changes.Appeared)
			out.Changes.Appeared = append(out.Changes.Appeared, e)
		}
		for _, g := range r.Changes.Gone {
			if !gone[g] {
				goneOrder = append(goneOrder, g)
			}
			gone[g] = true
		}
		out.Changes.Omitted += r.Changes.Omitted
		out.Opened = append(out.Opened, r.Opened...)
		out.Closed = append(out.Closed, r.Closed...)
		out.Blocked = append(out.Blocked, r.Blocked...)
		out.Loading = r.Loading
		if r.Download != nil {
			out.Download = r.Download
		}
	}
	keep := func(list []protocol.Element) []protocol.Element {
		var k []protocol.Element
		for _, e := range list {
			if !gone[e.Ref] {
				k = append(k, e)
			}
		}
		return k
	}
	out.Changes.Changed, out.Changes.Appeared = keep(out.Changes.Changed), keep(out.Changes.Appeared)
	if withRuns == 1 {
		// One action's runs stand as it said them: later lines override them.
		out.Changes.Contexts = runs
	} else if withRuns > 1 {
		// Over several actions a run of all the lines in a context no
		// longer says which: each ref's first context to its last.
		at := map[move]int{}
		for _, ref := range movedOrder {
			mv, ok := moved[ref]
			if !ok || gone[ref] || mv.from == mv.to {
				continue
			}
			i, ok := at[mv]
			if !ok {
				i = len(out.Changes.Contexts)
				at[mv] = i
				out.Changes.Contexts = append(out.Changes.Contexts, protocol.ContextChange{From: mv.from, To: mv.to})
			}
			out.Changes.Contexts[i].Refs = append(out.Changes.Contexts[i].Refs, ref)
		}
	}
	for _, g := range goneOrder {
		if gone[g] {
			out.Changes.Gone = append(out.Changes.Gone, g)
			delete(gone, g) // listed once, though gone, back and gone again
		}
	}
	return out
}
