package mcp

// VerbTools names the tool that does what each CLI verb does, so an agent
// over MCP can do all an agent at the shell can (a test in package cli
// fails when a verb has no tool, or a tool no verb). Verbs that share a
// shape share a tool (docs/cli.md, "MCP tools"): Renamed says
// which parameter picks each. Only the tests read it: a function, so that
// no start of the binary builds it.
func VerbTools() map[string]string {
	return map[string]string{
		"tabs":       "browser_tabs",
		"snapshot":   "browser_snapshot",
		"read":       "browser_snapshot",
		"click":      "browser_click",
		"dblclick":   "browser_click",
		"rightclick": "browser_click",
		"check":      "browser_click",
		"uncheck":    "browser_click",
		"hover":      "browser_hover",
		"focus":      "browser_hover",
		"type":       "browser_type",
		"fill":       "browser_type",
		"select":     "browser_select_option",
		"press":      "browser_press_key",
		"scroll":     "browser_scroll",
		"find":       "browser_scroll",
		"navigate":   "browser_navigate",
		"back":       "browser_navigate",
		"forward":    "browser_navigate",
		"reload":     "browser_navigate",
		"wait":       "browser_wait_for",
		"screenshot": "browser_take_screenshot",
		"pdf":        "browser_take_screenshot",
		"status":     "browser_status",
		"log":        "browser_status",
		"policy":     "browser_status",
		"downloads":  "browser_status",
		"pause":      "browser_pause",
		"resume":     "browser_pause",
		"upload":     "browser_file_upload",
		"drag":       "browser_drag",
		"dialog":     "browser_handle_dialog",
		"console":    "browser_console_messages",
		"network":    "browser_network_requests",
		"eval":       "browser_evaluate",
		"record":     "browser_record",
		"replay":     "browser_record",
		"handoff":    "browser_handoff",
		"resize":     "browser_resize",
	}
}

// Composites are the tools that do in one call what several verbs do,
// by the verbs they stand for.
func Composites() map[string][]string {
	return map[string][]string{
		"browser_fill_form": {"fill", "select", "check", "uncheck"},
	}
}

// renamed are the tools of earlier releases that are now a parameter of
// a broader tool: a call by the old name is refused (bad_request) naming
// the call that does it now. tools/list never lists them.
var renamed = map[string]string{
	"browser_fill":             "browser_type with replace: true",
	"browser_check":            "browser_click with checked: true or false",
	"browser_focus":            "browser_hover with focus: true",
	"browser_find":             "browser_scroll with text",
	"browser_read":             "browser_snapshot with ref (and from)",
	"browser_navigate_back":    "browser_navigate with action: back",
	"browser_navigate_forward": "browser_navigate with action: forward",
	"browser_reload":           "browser_navigate with action: reload",
	"browser_log":              "browser_status with show: log",
	"browser_policy":           "browser_status with show: policy",
	"browser_downloads":        "browser_status with show: downloads",
	"browser_resume":           "browser_pause with resume: true",
	"browser_replay":           "browser_record with action: replay",
	"browser_pdf_save":         "browser_take_screenshot with pdf: true",
}
