package io.partita.web;

import io.micronaut.context.annotation.ConfigurationProperties;
import io.micronaut.context.event.BeanCreatedEvent;
import io.micronaut.context.event.BeanCreatedEventListener;
import io.micronaut.core.bind.annotation.Bindable;
import io.micronaut.http.server.netty.NettyServerCustomizer;
import io.micronaut.http.netty.channel.ChannelPipelineCustomizer;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.http.DefaultFullHttpResponse;
import io.netty.handler.codec.http.FullHttpResponse;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import jakarta.inject.Singleton;
import jakarta.validation.constraints.Min;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A body limit per route, below Micronaut's one {@code micronaut.server.max-request-size} (4 MiB, which only
 * {@code POST /transactions/batch} needs): a single transaction, account, transfer, job or schedule fits in
 * {@code partita.http.max-body-size} (16 KiB), a SQL statement with its parameters in
 * {@code partita.http.max-sql-body-size} (64 KiB). A larger body is answered 413 problem+json at once, the rest
 * of it is read and dropped without being kept, the connection is closed at its end, and nothing reaches a
 * controller. A compressed body (any
 * Content-Encoding but identity) is refused with 415 on every route, since it would be inflated past these limits.
 * Its handler runs on each HTTP/1.1 connection's event loop, one instance per connection (the held
 * chunks are that connection's alone); the bean only adds the handler as connections open.
 *
 * <p>It sits as a Netty handler between the HTTP codec and Micronaut's request handler. A body with a Content-Length
 * over the limit is refused on its headers, before it is read. A chunked body (no Content-Length) on a limited route
 * is held here, at most the limit per connection, until its last chunk, and only then handed on; so no chunked body
 * past the limit is ever buffered or parsed. Bodies of the batch route pass straight through to Micronaut's limit.
 */
@Singleton
class BodyLimits implements BeanCreatedEventListener<NettyServerCustomizer.Registry> {

    static final String HANDLER = "partita-body-limits";
    static final String BATCH_PATH = "/transactions/batch";
    static final String SQL_PATH = "/sql";

    /** The same shape and words ProblemResponseProcessor gives Micronaut's own 413, plus the route's limit. */
    private static final String TOO_LARGE = "{\"type\":\"https://partita.dev/problems/request-entity-too-large\","
            + "\"title\":\"Request Entity Too Large\",\"status\":413,\"detail\":\"The request body is larger than "
            + "this route accepts (%d bytes).\"}";
    private static final String ENCODED = "{\"type\":\"https://partita.dev/problems/unsupported-media-type\","
            + "\"title\":\"Unsupported Media Type\",\"status\":415,\"detail\":\"A request body must not be "
            + "compressed (Content-Encoding): send it as plain JSON.\"}";
    private static final String TRANSFER_CODED = "{\"type\":\"https://partita.dev/problems/bad-request\","
            + "\"title\":\"Bad Request\",\"status\":400,\"detail\":\"The only Transfer-Encoding accepted is "
            + "chunked.\"}";

    private final Settings settings;

    BodyLimits(Settings settings) {
        this.settings = settings;
    }

    /**
     * @param maxBodySize    the largest body of every route but the batch and SQL ones, in bytes
     * @param maxSqlBodySize the largest body of {@code POST /sql}, in bytes
     */
    @ConfigurationProperties("partita.http")
    record Settings(@Bindable(defaultValue = "16384") @Min(1024) long maxBodySize,
                    @Bindable(defaultValue = "65536") @Min(1024) long maxSqlBodySize) {
    }

    @Override
    public NettyServerCustomizer.Registry onCreated(BeanCreatedEvent<NettyServerCustomizer.Registry> event) {
        event.getBean().register(new NettyServerCustomizer() {
            @Override
            public NettyServerCustomizer specializeForChannel(Channel channel, ChannelRole role) {
                return role == ChannelRole.CONNECTION ? new ConnectionCustomizer(channel) : this;
            }
        });
        return event.getBean();
    }

    /** The limit of the route a request line names; -1: no limit of ours (Micronaut's applies). */
    long limitOf(String uri) {
        int end = uri.length();
        for (int i = 0; i < uri.length(); i++) {
            char c = uri.charAt(i);
            if (c == '?' || c == '#') {
                end = i;
                break;
            }
        }
        String path = uri.substring(0, end);
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (path.equals(BATCH_PATH)) {
            return -1;
        }
        return path.equals(SQL_PATH) ? settings.maxSqlBodySize() : settings.maxBodySize();
    }

    private final class ConnectionCustomizer implements NettyServerCustomizer {

        private final Channel channel;

        ConnectionCustomizer(Channel channel) {
            this.channel = channel;
        }

        @Override
        public void onStreamPipelineBuilt() {
            // HTTP/1.1 only: an HTTP/2 stream has no "micronaut-inbound-handler" of this kind (not enabled here).
            if (channel.pipeline().get(ChannelPipelineCustomizer.HANDLER_MICRONAUT_INBOUND) != null
                    && channel.pipeline().get(HANDLER) == null) {
                channel.pipeline().addBefore(ChannelPipelineCustomizer.HANDLER_MICRONAUT_INBOUND, HANDLER,
                        new Handler());
            }
        }
    }

    /** One connection's state: which request's body it is passing, holding or dropping. Event-loop only. */
    private final class Handler extends ChannelInboundHandlerAdapter {

        private boolean dropping;
        private long limit = -1;
        private long held;
        private List<Object> holding;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            if (msg instanceof HttpRequest request) {
                startRequest(ctx, request);
                return;
            }
            if (msg instanceof HttpContent content) {
                body(ctx, content);
                return;
            }
            ctx.fireChannelRead(msg);
        }

        private void startRequest(ChannelHandlerContext ctx, HttpRequest request) {
            dropping = false;
            held = 0;
            if (request.decoderResult().isFailure()) {
                limit = -1;
                ctx.fireChannelRead(request);
                return;
            }
            String encoding = request.headers().get(HttpHeaderNames.CONTENT_ENCODING);
            if (encoding != null && !encoding.isBlank() && !encoding.trim().equalsIgnoreCase("identity")
                    && bodyFollows(request)) {
                // A compressed body would be inflated past every limit counted here (a zip bomb); no client of this
                // API needs one.
                refuse(ctx, request, HttpResponseStatus.UNSUPPORTED_MEDIA_TYPE, ENCODED);
                return;
            }
            String transfer = request.headers().get(HttpHeaderNames.TRANSFER_ENCODING);
            if (transfer != null && !transfer.trim().equalsIgnoreCase("chunked")) {
                // Netty would inflate a gzip or deflate transfer coding just as a content coding.
                refuse(ctx, request, HttpResponseStatus.BAD_REQUEST, TRANSFER_CODED);
                return;
            }
            limit = limitOf(request.uri());
            if (limit < 0) {
                ctx.fireChannelRead(request);
                return;
            }
            long length = HttpUtil.getContentLength(request, -1L);
            if (length > limit) {
                refuse(ctx, request, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, String.format(TOO_LARGE, limit));
                return;
            }
            if (length >= 0 || !HttpUtil.isTransferEncodingChunked(request)) {
                // The codec frames a body by its Content-Length, so it cannot run past it: nothing to count.
                limit = -1;
                ctx.fireChannelRead(request);
                return;
            }
            if (HttpUtil.is100ContinueExpected(request)) {
                // Micronaut would answer the Expect itself, but it sees the request only once the body is here.
                request.headers().remove(HttpHeaderNames.EXPECT);
                ctx.writeAndFlush(new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, HttpResponseStatus.CONTINUE));
            }
            holding = new ArrayList<>();
            holding.add(request);
            if (request instanceof HttpContent content) {
                // A request object that is its own first (or only) chunk.
                countHeld(ctx, content);
            }
        }

        private void body(ChannelHandlerContext ctx, HttpContent content) {
            if (dropping) {
                boolean last = content instanceof LastHttpContent;
                content.release();
                if (last) {
                    ctx.close();
                }
                return;
            }
            if (holding == null) {
                ctx.fireChannelRead(content);
                return;
            }
            holding.add(content);
            countHeld(ctx, content);
        }

        private void countHeld(ChannelHandlerContext ctx, HttpContent content) {
            held += content.content().readableBytes();
            if (held > limit) {
                HttpRequest request = (HttpRequest) holding.get(0);
                releaseHeld();
                refuse(ctx, request, HttpResponseStatus.REQUEST_ENTITY_TOO_LARGE, String.format(TOO_LARGE, limit),
                        content instanceof LastHttpContent);
                return;
            }
            if (content instanceof LastHttpContent) {
                List<Object> messages = holding;
                holding = null;
                messages.forEach(ctx::fireChannelRead);
            }
        }

        private void refuse(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status,
                            String problem) {
            refuse(ctx, request, status, problem, !bodyFollows(request));
        }

        private boolean bodyFollows(HttpRequest request) {
            return !(request instanceof LastHttpContent) && (HttpUtil.getContentLength(request, 0L) > 0
                    || request.headers().contains(HttpHeaderNames.TRANSFER_ENCODING));
        }

        private void refuse(ChannelHandlerContext ctx, HttpRequest request, HttpResponseStatus status,
                            String problem, boolean bodyDone) {
            dropping = !bodyDone;
            ReferenceCountUtil.release(request);
            ByteBuf body = Unpooled.copiedBuffer(problem, StandardCharsets.UTF_8);
            FullHttpResponse response = new DefaultFullHttpResponse(HttpVersion.HTTP_1_1, status, body);
            response.headers().set(HttpHeaderNames.CONTENT_TYPE, Problem.MEDIA_TYPE);
            response.headers().set(HttpHeaderNames.CONTENT_LENGTH, body.readableBytes());
            response.headers().set(HttpHeaderNames.CONNECTION, HttpHeaderValues.CLOSE);
            // The rest of the body is read and dropped, unbuffered, and the connection closed at its end: closing at
            // once would make a client that is still sending fail with a broken pipe before it reads the answer.
            if (dropping) {
                ctx.writeAndFlush(response);
            } else {
                ctx.writeAndFlush(response).addListener(ChannelFutureListener.CLOSE);
            }
        }

        private void releaseHeld() {
            if (holding != null) {
                holding.subList(1, holding.size()).forEach(ReferenceCountUtil::release);
                holding = null;
            }
        }

        @Override
        public void handlerRemoved(ChannelHandlerContext ctx) {
            if (holding != null) {
                holding.forEach(ReferenceCountUtil::release);
                holding = null;
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) throws Exception {
            handlerRemoved(ctx);
            super.channelInactive(ctx);
        }
    }
}
