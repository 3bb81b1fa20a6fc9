// The encoders of the files a run writes: HTML text and attributes, JSON inside a <script>, XML, Markdown.
import { describe, expect, it } from 'vitest';
import { escapeHtml, jsonForScript, markdownText, xmlAttribute, xmlText } from '../../src/output/escape.js';

describe('escapeHtml', () => {
  it('escapes markup and quotes, and shows controls and bidi overrides instead of obeying them', () => {
    expect(escapeHtml(`<img src=x onerror="a('b')">&\u202etxt\u0007`)).toBe('&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;\\u202etxt\\x07');
  });
});

describe('jsonForScript', () => {
  it('script data holds no <, >, & or line separators, and reads back the same', () => {
    const value = { url: '</script><!--<script>', note: 'a & b\u2028c\u2029' };
    const json = jsonForScript(value);
    expect(json).not.toMatch(/[<>&\u2028\u2029]/);
    expect(JSON.parse(json)).toEqual(value);
  });
});

describe('xml and markdown', () => {
  it('an attribute keeps its line breaks as references; markdown starts no code, link or cell', () => {
    expect(xmlText('a<b & "c"')).toBe('a&lt;b &amp; &quot;c&quot;');
    expect(xmlAttribute('a\nb')).toBe('a&#10;b');
    expect(markdownText('`x` | [y](z)')).toBe('\\`x\\` \\| \\[y\\](z)');
  });
});
