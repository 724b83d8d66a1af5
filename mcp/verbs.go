package mcp

// VerbTools names the tool that does what each CLI verb does, so an agent
// over MCP can do all an agent at the shell can (a test in package cli
// fails when a verb has no tool, or a tool no verb). Verbs of other
// rounds' features appear once their commands exist. Only the tests
// read it: a function, so that no start of the binary builds it.
func VerbTools() map[string]string {
	return map[string]string{
		"tabs":       "browser_tabs",
		"snapshot":   "browser_snapshot",
		"click":      "browser_click",
		"dblclick":   "browser_click",
		"hover":      "browser_hover",
		"focus":      "browser_focus",
		"type":       "browser_type",
		"fill":       "browser_fill",
		"select":     "browser_select_option",
		"check":      "browser_check",
		"uncheck":    "browser_check",
		"press":      "browser_press_key",
		"scroll":     "browser_scroll",
		"find":       "browser_find",
		"navigate":   "browser_navigate",
		"back":       "browser_navigate_back",
		"forward":    "browser_navigate_forward",
		"reload":     "browser_reload",
		"wait":       "browser_wait_for",
		"screenshot": "browser_take_screenshot",
		"status":     "browser_status",
		"pause":      "browser_pause",
		"resume":     "browser_resume",
		"log":        "browser_log",
		"policy":     "browser_policy",
		"upload":     "browser_file_upload",
		"downloads":  "browser_downloads",
		"drag":       "browser_drag",
		"dialog":     "browser_handle_dialog",
		"console":    "browser_console_messages",
		"network":    "browser_network_requests",
		"eval":       "browser_evaluate",
		"pdf":        "browser_pdf_save",
		"record":     "browser_record",
		"replay":     "browser_replay",
		"handoff":    "browser_handoff",
		"read":       "browser_read",
	}
}

// Composites are the tools that do in one call what several verbs do,
// by the verbs they stand for.
func Composites() map[string][]string {
	return map[string][]string{
		"browser_fill_form": {"fill", "select", "check", "uncheck"},
	}
}
