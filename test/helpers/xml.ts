// Parsing XML in tests with a real, strict parser (saxes): a small element tree, or the error a malformed document raises.
import { SaxesParser } from 'saxes';

export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  children: XmlElement[];
  /** Character data directly inside this element, entity references resolved. */
  text: string;
}

/** Throws on anything XML 1.0 forbids (unescaped markup, invalid characters, unknown entities). */
export function parseXml(xml: string): XmlElement {
  const parser = new SaxesParser();
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' };
  const stack: XmlElement[] = [root];
  parser.on('opentag', (tag) => {
    const element: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, children: [], text: '' };
    stack[stack.length - 1]!.children.push(element);
    stack.push(element);
  });
  parser.on('closetag', () => void stack.pop());
  parser.on('text', (text) => void (stack[stack.length - 1]!.text += text));
  parser.on('cdata', (text) => void (stack[stack.length - 1]!.text += text));
  parser.write(xml).close();
  const [element] = root.children;
  if (!element) throw new Error('no root element');
  return element;
}

export function childrenNamed(element: XmlElement, name: string): XmlElement[] {
  return element.children.filter((child) => child.name === name);
}

export function childNamed(element: XmlElement, name: string): XmlElement | undefined {
  return childrenNamed(element, name)[0];
}
