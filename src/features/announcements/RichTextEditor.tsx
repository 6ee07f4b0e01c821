/**
 * The announcement content editor: Tiptap (StarterKit: paragraphs, headings, lists, quotes, code,
 * bold, italic, underline, strike, links) with a small toolbar. A controlled input for FormField:
 * `value` is HTML, `onChange` gets the editor's HTML. Links are http, https or mailto, as the API keeps.
 */
import {
  BoldOutlined,
  ItalicOutlined,
  LinkOutlined,
  OrderedListOutlined,
  RedoOutlined,
  StrikethroughOutlined,
  UnderlineOutlined,
  UndoOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { EditorContent, useEditor, useEditorState } from '@tiptap/react';
import StarterKit from '@tiptap/starter-kit';
import { Button, Divider, Space, Tooltip, theme } from 'antd';
import { type ReactNode, forwardRef, useEffect, useImperativeHandle } from 'react';

export interface RichTextEditorProps {
  id?: string;
  value?: string;
  onChange?: (html: string) => void;
  onBlur?: () => void;
  disabled?: boolean;
  'aria-invalid'?: boolean;
  placeholder?: string;
}

const EMPTY = '<p></p>';

export const RichTextEditor = forwardRef<{ focus(): void }, RichTextEditorProps>(function RichTextEditor(
  { id, value, onChange, onBlur, disabled, 'aria-invalid': invalid },
  ref,
) {
  const { token } = theme.useToken();
  const editor = useEditor({
    extensions: [
      StarterKit.configure({
        heading: { levels: [2, 3, 4] },
        link: { openOnClick: false, autolink: true, protocols: ['http', 'https', 'mailto'], defaultProtocol: 'https' },
      }),
    ],
    content: value || EMPTY,
    editable: !disabled,
    editorProps: {
      attributes: {
        ...(id ? { id } : {}),
        role: 'textbox',
        'aria-multiline': 'true',
        'aria-label': 'Content',
        style: 'min-height: 140px; outline: none; padding: 8px 11px;',
      },
    },
    onUpdate: ({ editor: e }) => onChange?.(e.isEmpty ? '' : e.getHTML()),
    onBlur: () => onBlur?.(),
  });

  useImperativeHandle(ref, () => ({ focus: () => editor?.commands.focus() }), [editor]);

  // A value set from outside (the edit form loading a record, a reset) replaces the document.
  useEffect(() => {
    if (!editor) return;
    const current = editor.isEmpty ? '' : editor.getHTML();
    if ((value ?? '') !== current) editor.commands.setContent(value || EMPTY, { emitUpdate: false });
  }, [editor, value]);

  useEffect(() => {
    editor?.setEditable(!disabled);
  }, [editor, disabled]);

  const active = useEditorState({
    editor,
    selector: ({ editor: e }) => ({
      bold: e?.isActive('bold') ?? false,
      italic: e?.isActive('italic') ?? false,
      underline: e?.isActive('underline') ?? false,
      strike: e?.isActive('strike') ?? false,
      h2: e?.isActive('heading', { level: 2 }) ?? false,
      h3: e?.isActive('heading', { level: 3 }) ?? false,
      bullet: e?.isActive('bulletList') ?? false,
      ordered: e?.isActive('orderedList') ?? false,
      quote: e?.isActive('blockquote') ?? false,
      link: e?.isActive('link') ?? false,
    }),
  });

  const tool = (label: string, icon: ReactNode, on: boolean | undefined, run: () => void) => (
    <Tooltip title={label} key={label}>
      <Button
        size="small"
        type={on ? 'primary' : 'text'}
        icon={icon}
        aria-label={label}
        aria-pressed={on}
        disabled={disabled}
        onMouseDown={(e) => e.preventDefault()}
        onClick={run}
      />
    </Tooltip>
  );

  const setLink = () => {
    if (!editor) return;
    if (editor.isActive('link')) {
      editor.chain().focus().unsetLink().run();
      return;
    }
    const href = window.prompt('Link address (https://...)');
    if (href && /^(https?:|mailto:)/i.test(href.trim())) editor.chain().focus().extendMarkRange('link').setLink({ href: href.trim() }).run();
  };

  const c = () => editor!.chain().focus();
  return (
    <div
      style={{
        border: `1px solid ${invalid ? token.colorError : token.colorBorder}`,
        borderRadius: token.borderRadius,
        background: disabled ? token.colorBgContainerDisabled : token.colorBgContainer,
      }}
    >
      {editor && (
        <Space size={2} wrap style={{ padding: 4, borderBottom: `1px solid ${token.colorBorderSecondary}`, width: '100%' }} role="toolbar" aria-label="Formatting">
          {tool('Bold', <BoldOutlined />, active?.bold, () => c().toggleBold().run())}
          {tool('Italic', <ItalicOutlined />, active?.italic, () => c().toggleItalic().run())}
          {tool('Underline', <UnderlineOutlined />, active?.underline, () => c().toggleUnderline().run())}
          {tool('Strikethrough', <StrikethroughOutlined />, active?.strike, () => c().toggleStrike().run())}
          <Divider type="vertical" />
          {tool('H2 heading', <span style={{ fontWeight: 600 }}>H2</span>, active?.h2, () => c().toggleHeading({ level: 2 }).run())}
          {tool('H3 subheading', <span style={{ fontWeight: 600 }}>H3</span>, active?.h3, () => c().toggleHeading({ level: 3 }).run())}
          {tool('Bullet list', <UnorderedListOutlined />, active?.bullet, () => c().toggleBulletList().run())}
          {tool('Numbered list', <OrderedListOutlined />, active?.ordered, () => c().toggleOrderedList().run())}
          {tool('Quote', <span style={{ fontWeight: 600 }}>”</span>, active?.quote, () => c().toggleBlockquote().run())}
          {tool('Link', <LinkOutlined />, active?.link, setLink)}
          <Divider type="vertical" />
          {tool('Undo', <UndoOutlined />, false, () => c().undo().run())}
          {tool('Redo', <RedoOutlined />, false, () => c().redo().run())}
        </Space>
      )}
      <EditorContent editor={editor} />
    </div>
  );
});
