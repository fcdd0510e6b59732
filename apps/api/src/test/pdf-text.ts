import { PDFParse } from 'pdf-parse';

/** The text of a PDF with every run of whitespace (line breaks, tabs, no-break spaces) as one space. */
export async function pdfText(pdf: Buffer | Uint8Array): Promise<string> {
  return (await pdfTextAndPages(pdf)).text;
}

export async function pdfTextAndPages(pdf: Buffer | Uint8Array): Promise<{ text: string; pages: number }> {
  const parser = new PDFParse({ data: new Uint8Array(pdf) });
  try {
    const result = await parser.getText();
    return { text: result.text.replace(/\s+/g, ' '), pages: result.total };
  } finally {
    await parser.destroy();
  }
}
