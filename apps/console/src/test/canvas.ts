/**
 * The test DOM draws nothing: a 2D context that takes every call and a `Path2D` that records nothing let
 * uPlot build its chart as in a browser (canvas, axes, cursor), so the tests see the real DOM.
 */
export function installCanvas(): void {
  const context = (canvas: HTMLCanvasElement) => {
    const state: Record<string | symbol, unknown> = { canvas };
    return new Proxy(state, {
      get(target, property) {
        if (property in target) return target[property];
        if (property === 'measureText') {
          return (text: string) => ({
            width: text.length * 6,
            actualBoundingBoxAscent: 8,
            actualBoundingBoxDescent: 2,
          });
        }
        return () => undefined;
      },
      set(target, property, value) {
        target[property] = value;
        return true;
      },
    });
  };
  HTMLCanvasElement.prototype.getContext = function getContext(this: HTMLCanvasElement) {
    return context(this);
  } as unknown as typeof HTMLCanvasElement.prototype.getContext;
  if (typeof globalThis.Path2D === 'undefined') {
    globalThis.Path2D = class {
      addPath() {}
      arc() {}
      arcTo() {}
      bezierCurveTo() {}
      closePath() {}
      ellipse() {}
      lineTo() {}
      moveTo() {}
      quadraticCurveTo() {}
      rect() {}
      roundRect() {}
    };
  }
}
