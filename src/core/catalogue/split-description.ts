// JP's `split_description` (jp_llm tool.rs): the summary an MCP tool gets when it
// has no docs of its own. The first sentence, ending at a `.` followed by a newline,
// or by a space and then an uppercase letter; else the first line; else the whole
// text. The `.` stays with the sentence; the result is trimmed. (JP's doc comment
// mentions a 120-character cap that its code does not implement; neither do we.)

const SENTENCE_END = /\.(?:\n| \p{Lu})/u;

export function splitDescription(text: string): string {
  const sentence = SENTENCE_END.exec(text);
  if (sentence) return text.slice(0, sentence.index + 1).trim();
  const newline = text.indexOf('\n');
  if (newline >= 0) return text.slice(0, newline).trim();
  return text.trim();
}
