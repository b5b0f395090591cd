import type { Dispatcher } from 'undici';

/**
 * The last point before a request's bytes leave: undici calls `onRequestStart` when it puts the
 * request on a socket, which may be well after the transport handed it over (a connection still
 * being opened, a socket still busy). A request handed over before a signal whose socket comes
 * free after it would otherwise go out once the signal handler has run. Here the start gate is
 * asked again at that moment: closed, the request is aborted with `refusal()` before a byte is
 * written; open, `onWire` records that it went out.
 */
export function gatedDispatcher(
  agent: Dispatcher,
  closed: () => boolean,
  refusal: () => Error,
  onWire: () => void,
): Dispatcher {
  return agent.compose(
    (dispatch) => (options, handler) => dispatch(options, new GatedHandler(handler, closed, refusal, onWire)),
  );
}

type Handler = Dispatcher.DispatchHandler;
type Controller = Parameters<NonNullable<Handler['onRequestStart']>>[0];

class GatedHandler implements Handler {
  constructor(
    private readonly inner: Handler,
    private readonly closed: () => boolean,
    private readonly refusal: () => Error,
    private readonly onWire: () => void,
  ) {}

  onRequestStart(controller: Controller, context: unknown): void {
    this.inner.onRequestStart?.(controller, context);
    if (this.closed()) controller.abort(this.refusal());
    else this.onWire();
  }

  onRequestUpgrade(...args: Parameters<NonNullable<Handler['onRequestUpgrade']>>): void {
    this.inner.onRequestUpgrade?.(...args);
  }

  onResponseStart(...args: Parameters<NonNullable<Handler['onResponseStart']>>): void {
    this.inner.onResponseStart?.(...args);
  }

  onResponseData(...args: Parameters<NonNullable<Handler['onResponseData']>>): void {
    this.inner.onResponseData?.(...args);
  }

  onResponseEnd(...args: Parameters<NonNullable<Handler['onResponseEnd']>>): void {
    this.inner.onResponseEnd?.(...args);
  }

  onResponseError(...args: Parameters<NonNullable<Handler['onResponseError']>>): void {
    this.inner.onResponseError?.(...args);
  }
}
