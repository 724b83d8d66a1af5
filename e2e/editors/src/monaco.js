// Monaco as its ESM docs set it up, with its defaults (EditContext input in
// Chrome), or with ?textarea its older input through a hidden textarea
// (editContext: false, as browsers without EditContext get); the editor is
// window.editor for the test's observer. No language workers: plain text
// needs none.
import * as monaco from 'monaco-editor/editor/editor.api.js';

window.editor = monaco.editor.create(document.querySelector('#editor'), {
  value: 'let a = 1;',
  language: 'plaintext',
  ariaLabel: 'Query',
  automaticLayout: true,
  minimap: { enabled: false },
  editContext: !new URLSearchParams(location.search).has('textarea'),
});
document.title = 'Monaco ready';
