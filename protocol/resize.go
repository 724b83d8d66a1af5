package protocol

// The size of a window (docs/window-size.md, "Window size"): grip resize W
// H and MCP browser_resize set the size of the window a tab is in, only
// in a browser grip launched or for a window whose every tab is the
// session's own, never a window of the person's.

// OpResize sets the size of the window a tab is in: ResizeArgs →
// ResizeResult.
const OpResize = "resize"

// Window sizes a resize accepts, in CSS pixels.
const (
	MinWindowWidth, MaxWindowWidth   = 320, 7680
	MinWindowHeight, MaxWindowHeight = 200, 4320
)

// ResizeArgs are the arguments of OpResize. Tab 0 is the session's tab.
type ResizeArgs struct {
	Tab    int `json:"tab,omitempty"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ResizeResult answers OpResize: the tab, its window's size now and the
// page's viewport in it (what media queries see).
type ResizeResult struct {
	Tab            TabRef `json:"tab"`
	WindowID       int    `json:"windowId"`
	Width          int    `json:"width"`
	Height         int    `json:"height"`
	ViewportWidth  int    `json:"viewportWidth,omitempty"`
	ViewportHeight int    `json:"viewportHeight,omitempty"`
}

// ResizeParams asks the extension to set the size of the window tab is
// in; ResizeReply is its size then.
type ResizeParams struct {
	TabID  int `json:"tabId"`
	Width  int `json:"width"`
	Height int `json:"height"`
}

// ResizeReply is the window's size after the resize and the tab's viewport.
type ResizeReply struct {
	WindowID       int `json:"windowId"`
	Width          int `json:"width"`
	Height         int `json:"height"`
	ViewportWidth  int `json:"viewportWidth,omitempty"`
	ViewportHeight int `json:"viewportHeight,omitempty"`
}

// ExtResize sets the size of the window a tab is in.
const ExtResize ExtCall[ResizeParams, ResizeReply] = "resize"
