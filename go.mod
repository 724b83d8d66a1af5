module github.com/grip-dev/grip

go 1.26.0

require (
	github.com/Microsoft/go-winio v0.6.4
	github.com/chromedp/cdproto v0.159.0
	github.com/chromedp/chromedp v0.23.0
	github.com/fsnotify/fsnotify v1.10.1
	github.com/goccy/go-json v0.12.0
	github.com/gofrs/flock v0.13.2
	github.com/google/renameio/v2 v2.0.2
	github.com/modelcontextprotocol/go-sdk v1.8.0
	github.com/tiktoken-go/tokenizer v0.10.0
	github.com/vmihailenco/msgpack/v5 v5.4.1
	golang.org/x/sync v0.23.0
	golang.org/x/sys v0.50.0
)

require (
	github.com/dlclark/regexp2/v2 v2.5.1 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
	github.com/google/jsonschema-go v0.4.3 // indirect
	github.com/segmentio/asm v1.1.3 // indirect
	github.com/segmentio/encoding v0.5.4 // indirect
	github.com/vmihailenco/tagparser/v2 v2.0.0 // indirect
	github.com/yosida95/uritemplate/v3 v3.0.2 // indirect
	golang.org/x/oauth2 v0.35.0 // indirect
	golang.org/x/time v0.15.0 // indirect
)
