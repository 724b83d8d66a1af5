// Slate with slate-react and its history, set up as its walkthrough does
// (React, no JSX); window.editor is the Slate editor for the test's
// observer: editor.children is its value.
import React from 'react';
import { createRoot } from 'react-dom/client';
import { createEditor, Node } from 'slate';
import { Slate, Editable, withReact } from 'slate-react';
import { withHistory } from 'slate-history';

const initial = [{ type: 'paragraph', children: [{ text: '' }] }];

function App() {
  const [editor] = React.useState(() => withHistory(withReact(createEditor())));
  window.editor = editor;
  window.text = () => editor.children.map((n) => Node.string(n)).join('\n');
  return React.createElement(Slate, { editor, initialValue: initial },
    React.createElement(Editable, { placeholder: 'Describe the bug…', style: { minHeight: '6em', border: '1px solid #ccc', padding: '4px' } }));
}

createRoot(document.querySelector('#editor')).render(React.createElement(App));
document.title = 'Slate ready';
