// Slate with its React view, as its walkthrough sets it up (no JSX: the
// bundle is built without a JSX transform); the editor is window.slateEditor
// for the test's observer, its blocks' text (JSON, a string each)
// window.slateBlocks().
import { createElement as h, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { createEditor, Node } from 'slate';
import { Slate, Editable, withReact } from 'slate-react';

const initialValue = [{ type: 'paragraph', children: [{ text: '' }] }];

function App() {
  const [editor] = useState(() => withReact(createEditor()));
  window.slateEditor = editor;
  return h(Slate, { editor, initialValue },
    h(Editable, { 'aria-label': 'Story', placeholder: 'Tell your story' }));
}

window.slateBlocks = () => JSON.stringify(window.slateEditor.children.map((n) => Node.string(n)));
createRoot(document.querySelector('#editor')).render(h(App));
document.title = 'Slate ready';
