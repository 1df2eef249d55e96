# Tiếng Việt. Các khóa phải giống hệt en.ftl.

## Names

side-red = Đỏ
side-black = Đen
seat-first = người đi trước (lần lật đầu tiên quyết định màu của bạn)
seat-second = người đi sau (lần lật đầu tiên quyết định màu của bạn)
variant-xiangqi = Cờ tướng
variant-jieqi = Cờ úp
variant-banqi = Cờ úp nửa bàn (Banqi)
role-general = tướng
role-advisor = sĩ
role-elephant = tượng
role-chariot = xe
role-cannon = pháo
role-horse = mã
role-soldier = tốt
piece-name = { $role } { $side }
player-with-side = { $player } ({ $side })
duration-days = { $n } ngày
duration-hours = { $n } giờ
duration-minutes = { $n } phút
duration-seconds = { $n } giây

## Buttons

button-accept = Nhận lời
button-decline = Từ chối
button-resign = Đầu hàng
button-draw = Cầu hòa
button-accept-draw = Đồng ý hòa

## Challenges

challenge-anyone = bất kỳ ai
challenge-colour-red = { $challenger } cầm quân Đỏ
challenge-colour-black = { $challenger } cầm quân Đen
challenge-colour-random = chọn màu ngẫu nhiên
challenge-posted = { $challenger } thách đấu { $opponent } ván { $variant } (luật { $preset }, { $time }; { $colour }).
    Hãy nhận lời trong { $expiry } bằng nút bấm hoặc /accept. Mã thách đấu { $challenge }.
challenge-accepted = { $player } đã nhận lời: ván { $game } bắt đầu.
challenge-declined = { $player } đã từ chối.
challenge-withdrawn = { $player } đã rút lại.
challenge-expired = Không ai nhận lời kịp: lời thách đấu đã hết hạn.
accepted-elsewhere = Bạn đã nhận lời thách đấu của { $challenger }. Ván { $game } diễn ra trong nhóm nơi lời thách đấu được đăng.

## Chơi lại: tái đấu và tìm đối thủ

button-rematch = Tái đấu
button-take-seek = Nhận ván
button-cancel-seek = Hủy
command-rematch = Chơi lại ván đó, đổi màu quân (dưới kết quả: nút Tái đấu)
command-seek = Ván nhanh: lời thách đấu mở mà ai trong nhóm cũng nhận được (3+2 nếu không nêu thời gian)
option-opponent = Chơi với ai: tôi, máy cờ (mặc định), hoặc bất kỳ ai trong nhóm (ván nhanh)
choice-opponent-bot = Máy cờ
choice-opponent-anyone = Bất kỳ ai trong nhóm (ván nhanh)
option-seek-time = Đồng hồ của ván (mặc định 3+2, cờ chớp)
rematch-offered = { $challenger } mời { $opponent } tái đấu ván { $game }: { $variant } (luật { $preset }, { $time }; lần này { $colour }).
    Hãy nhận lời trong { $expiry } bằng nút bấm, /accept hoặc Tái đấu. Mã thách đấu { $challenge }.
rematch-offer-sent = Lời mời tái đấu { $player } của bạn đã được đăng trong nhóm (thách đấu { $challenge }): ván bắt đầu khi họ nhận lời hoặc bấm Tái đấu.
seek-posted = { $challenger } đang tìm người chơi: { $variant } (luật { $preset }, { $time }; { $colour }). Ai trong nhóm cũng có thể nhận ván bằng nút bấm hoặc /accept trong { $expiry }. Mã thách đấu { $challenge }.
refuse-rematch-not-a-player = Chỉ hai người chơi của ván { $game }, { $first } và { $second }, mới xin tái đấu được. Hãy bắt đầu ván của bạn bằng /challenge hoặc /seek.
refuse-rematch-running = Ván { $game } vẫn đang diễn ra: tái đấu sau khi có kết quả.
refuse-rematch-tournament = Ván { $game } là ván của giải đấu: giải tự xếp cặp, nên không có tái đấu.
refuse-rematch-no-game = Bạn không có ván nào đã kết thúc ở đây để chơi lại. Hãy nói ván nào: /rematch <mã> (/games liệt kê chúng).
refuse-rematch-offered = Bạn đã mời { $player } một ván ở đây (thách đấu { $challenge }): hãy chờ trả lời, hoặc rút lại bằng /cancel { $challenge }.
refuse-seek-private = Lời tìm đối thủ được đăng trong nhóm, nơi người khác có thể nhận. Hãy thêm tôi vào một nhóm và gửi /seek ở đó.
refuse-seek-user = Lời tìm đối thủ mở cho bất kỳ ai, nên không nêu tên ai. Để thách đấu một người, hãy dùng /challenge @họ.
refuse-seek-option = Tôi không hiểu “{ $option }” trong lời tìm đối thủ. Hãy dùng thời gian (3+2, 10m|30s, blitz, 1d), biến thể (jieqi, xiangqi, banqi), màu (red, black, random), luật (standard, pychess, tencent, vietnam) hoặc secret-captures.

## Game start

game-started = Ván { $game } bắt đầu: { $first } gặp { $second }.
game-terms = { $variant } · luật { $preset } · { $time }
game-commitment = Cam kết công bằng sha256(deal ‖ salt): { $commitment }. Cách chia quân và muối sẽ được công bố khi ván đấu kết thúc để ai cũng kiểm tra được rằng cách chia không hề thay đổi.
dm-game-started = Ván { $variant } { $game } của bạn với { $opponent } đã bắt đầu. Bạn cầm quân { $side }.
dm-secret-captures = Ván này chơi với secret-captures: không ai, kể cả người ăn, biết quân úp bị ăn là quân gì cho đến khi ván kết thúc và toàn bộ cách chia quân được công bố. Gửi /peek bất cứ lúc nào để xem bàn cờ theo góc nhìn của bạn.
dm-reveals-here = Khi bạn ăn một quân úp, tôi sẽ báo riêng cho bạn ở đây đó là quân gì. Gửi /peek bất cứ lúc nào để xem bàn cờ theo góc nhìn của bạn.

## Moves and boards

board-moves = Ván { $game } · { $moves }
board-move = { $number } { $move } do { $player } đi
board-moves-separator = {"; "}
board-to-move = Đến lượt { $player }.
board-check = Chiếu tướng!
board-repost = Ván { $game }: { $first } gặp { $second }, đã đi { $plies ->
   *[other] { $plies } nước
}.
board-last-move = Nước vừa đi: { $number } { $move }
board-final = Ván { $game } đã kết thúc.
dm-reveal = Ván { $game }, nước { $number } { $move }: quân úp bạn vừa ăn là { $piece }. Chỉ mình bạn biết điều này.

## Draws

draw-offered = { $player } cầu hòa trong ván { $game }. { $opponent }: bấm nút hoặc gửi /draw để đồng ý; đi một nước nghĩa là từ chối.
draw-offer-accepted = Lời cầu hòa của { $player } trong ván { $game } đã được chấp nhận.
draw-offer-lapsed = Lời cầu hòa của { $player } trong ván { $game } đã bị từ chối bằng một nước đi.
draw-offer-closed = Lời cầu hòa của { $player } trong ván { $game } đã đóng: ván đấu đã kết thúc.

## Results

result-head = Ván { $game } đã kết thúc.
result-win = { $winner } thắng: { $reason }.
result-draw = Hòa: { $reason }.
result-aborted = Ván đấu bị hủy: kết thúc trước khi cả hai bên đều đi một nước. Không tính điểm.
result-aborted-rules = Ván đấu đã bị hủy: các nước đi của nó không còn phát lại được theo luật hiện hành. Ván này không tính hệ số.
result-aborted-no-first-move = Ván đấu bị hủy: { $player } không đi nước đầu tiên kịp giờ. Không tính điểm.
result-tournament-forfeit = { $player } không đi nước đầu kịp giờ và thua xử (giải { $id }). Ván không tính điểm xếp hạng.
result-proof = Bộ bài chia là { $deal } với salt { $salt }. Các chữ cái lần lượt là các quân úp (chữ hoa là Đỏ, chữ thường là Đen); theo từng ô:
result-record = Các nước đi của ván { $game }: { $moves }
reason-checkmate = chiếu bí
reason-no-legal-move = đối thủ hết nước đi
reason-resignation = đối thủ đầu hàng
reason-timeout = đối thủ hết giờ
reason-perpetual-check = đối thủ chiếu dai
reason-perpetual-chase = đối thủ đuổi bắt dai
reason-agreement = hai bên đồng ý
reason-no-progress = quá nhiều nước không ăn quân
reason-repetition = cùng một thế cờ lặp lại quá nhiều lần
reason-timeout-cannot-mate = một bên hết giờ nhưng bên kia không còn quân để chiếu bí

## Lists and views

games-here = Các ván trong nhóm này:
games-none-here = Không có ván nào đang diễn ra trong nhóm này. Gửi /challenge để bắt đầu.
games-yours-elsewhere = Các ván của bạn ở nhóm khác:
games-line = { $game }: { $variant }, { $plies ->
   *[other] { $plies } nước
}, đến lượt { $player }
history-head = Ván { $game }: { $first } gặp { $second }
history-moves = Các nước đi: { $moves }
history-fen = FEN công khai: { $fen }
history-gif = Ván { $game }, từng nước một.
peek-text = Góc nhìn của bạn trong ván { $game } (bạn cầm quân { $side }). FEN: { $fen }
peek-sent-privately = Tôi đã gửi riêng góc nhìn của bạn qua tin nhắn.
watch-started = Nhóm này đang theo dõi ván { $game } ({ $first } gặp { $second }). Gửi /unwatch để dừng.
watch-stopped = Nhóm này không còn theo dõi: { $games }.
stats-head = Hệ số của { $player }:
stats-line = { $variant } ({ $speed }): { $rating } ± { $deviation } (thắng { $wins }, thua { $losses }, hòa { $draws })
stats-none = Chưa có ván tính điểm nào.
leaderboard-head = Bảng xếp hạng { $variant } của nhóm:
leaderboard-empty = Chưa ai ở đây hoàn thành một ván { $variant } tính điểm.
speed-bullet = Cờ siêu chớp
speed-blitz = Cờ chớp
speed-rapid = Cờ nhanh
speed-classical = Cờ chậm
speed-correspondence = Cờ qua thư
leaderboard-speed = { $speed }:
leaderboard-empty-speed = Chưa ai ở đây hoàn thành một ván { $variant } tính điểm ở thể loại { $speed }.
result-ratings-speed = Điểm mới ({ $speed }): { $changes }.
option-leaderboard-speed = Thể loại thời gian (mặc định mọi thể loại đã chơi)
refuse-leaderboard-word = “{ $word }” không phải loại cờ (jieqi, xiangqi, banqi) cũng không phải thể loại thời gian (bullet, blitz, rapid, classical, correspondence).
leaderboard-line = { $rank }. { $player }: { $rating } ({ $games ->
   *[other] { $games } ván
})

## Settings

settings-current = Cài đặt của nhóm: ngôn ngữ { $language }, quân cờ { $style }, bàn cờ nhìn từ phía { $orientation }, ký hiệu { $notation }, tin nhắn bàn cờ: { $board }, người được tạo giải: { $tournaments }, múi giờ { $zone }.
    Thay đổi bằng /settings language en|zh|vi, /settings style characters|symbols, /settings orientation red|black, /settings notation wxf|coordinates|chinese|traditional, /settings board new|edit, /settings tournaments admins|everyone, /settings timezone UTC+7.
    Ảnh bàn cờ riêng của bạn: /settings my-style characters|symbols|chat, /settings my-orientation red|black|own.
settings-changed = Đã lưu. Cài đặt của nhóm: ngôn ngữ { $language }, quân cờ { $style }, bàn cờ nhìn từ phía { $orientation }, ký hiệu { $notation }, tin nhắn bàn cờ: { $board }, người được tạo giải: { $tournaments }, múi giờ { $zone }.
settings-personal = Đã lưu, chỉ áp dụng cho bạn: ảnh bàn cờ riêng của bạn (/peek, tin nhắn lật quân) vẽ quân { $style ->
        [chat] theo kiểu của nhóm
        [characters] bằng chữ Hán
       *[symbols] bằng ký hiệu
    }, { $orientation ->
        [own] nhìn từ phía của bạn
        [red] nhìn từ phía Đỏ
       *[black] nhìn từ phía Đen
    }.
refuse-settings-admins = Chỉ quản trị viên của nhóm mới được đổi cài đặt của nhóm (Discord: quyền Quản lý máy chủ; Telegram: quản trị viên nhóm). Ảnh bàn cờ riêng của bạn thì bạn tự chọn: /settings my-style symbols, /settings my-orientation black.
refuse-setting-zone = “{ $value }” không phải múi giờ tôi đọc được: hãy viết độ lệch so với UTC, từ UTC-12 đến UTC+14, như UTC+7, +8, UTC+05:30, UTC-3:30 hoặc UTC.
refuse-setting-not-yet = Cài đặt này đổi được khi mọi tiến trình của bot đều chạy bản mới; các cài đặt khác đổi được ngay.

## Guides

help-text = Các lệnh:
    /challenge [@người] [jieqi|xiangqi|banqi] [red|black|random] [standard|pychess|tencent|vietnam] [secret-captures] [thời gian như 30m, 24h, 2d]: thách đấu một người, hoặc bất kỳ ai. secret-captures: không ai, kể cả người ăn, biết quân úp bị ăn là quân gì cho đến khi ván kết thúc.
    /accept, /decline, /cancel: nhận lời, từ chối hoặc rút lại lời thách đấu.
    /seek [3+2, 10m|30s, blitz…] [biến thể]: ván nhanh ai trong nhóm cũng nhận được (mặc định 3+2). /rematch [mã]: chơi lại ván đó, đổi màu quân.
    /move h2e2 (hoặc WXF C2.5, hoặc chữ Hán 炮二平五; Banqi: c3 để lật, c3c4 để đi): đi một nước. Nếu có nhiều ván ở đây: /move <mã> h2e2.
    /board: bàn cờ hiện tại. /history [mã]: các nước đi và FEN. /review [mã]: phân tích ván đã kết thúc.
    /resign, /draw: đầu hàng; cầu hòa hoặc đồng ý hòa.
    /peek: xem riêng góc nhìn của bạn. /games: các ván ở đây và của bạn.
    /play bot [novice|casual|club|master] [jieqi|xiangqi|banqi] [red|black|random] [secret-captures]: chơi với tôi, máy cờ có sẵn (không tính hệ số).
    { play-levels }
    /puzzle [jieqi|xiangqi|banqi]: một bài cờ theo hệ số giải đố của bạn; trả lời bằng /move. Trong nhóm ai cũng có thể trả lời. /puzzle daily 18 (quản trị viên): mỗi ngày một bài lúc 18:00 UTC; /puzzle daily off để dừng.
    /watch <mã>, /unwatch: theo dõi một ván của nhóm khác.
    /rules [biến thể]: tóm tắt luật. /stats [@người], /leaderboard [biến thể] [thể loại]: hệ số (bullet, blitz, rapid, classical, correspondence).
    /settings: ngôn ngữ, kiểu quân, hướng bàn cờ, ký hiệu, tin nhắn bàn cờ, ai được tạo giải, múi giờ.
    /learn: khóa học luật chơi, từng bài một, trả lời bằng /move (/learn list, /learn <số>, /learn restart, /learn stop).
    /tournament: giải đấu trong nhóm (quản trị viên, hoặc mọi người sau /settings tournaments everyone: /tournament swiss 5 rounds 3+2 at 20:00; rồi join, start, standings, bye, withdraw, trf).
start-greeting = Xin chào! Tôi làm trọng tài các ván Cờ úp, Cờ tướng và Banqi trong nhóm chat, và sẽ báo riêng cho bạn ở đây những quân úp bạn ăn được. Hãy thêm tôi vào một nhóm và gửi /challenge ở đó. /help liệt kê các lệnh.
rules-xiangqi = Cờ tướng: chiếu bí tướng đối phương. Tướng và sĩ không ra khỏi cung, tượng không qua sông và bị cản khi có quân ở mắt tượng, mã bị cản khi có quân ở chân mã, pháo ăn quân bằng cách nhảy qua đúng một quân, tốt qua sông được đi ngang. Hai tướng không được đối mặt trên cùng một cột trống. Bên hết nước đi thì thua.
rules-jieqi = Cờ úp: cờ tướng với quân úp. Trừ hai tướng, mọi quân đều úp mặt và được xáo trộn trên các vị trí xuất phát của bên mình. Quân úp đi như quân của vị trí nó đứng; nước đi đầu tiên lật nó lên, từ đó nó đi theo đúng loại quân thật (sĩ và tượng đã lật được đi khắp bàn cờ). Khi bạn ăn một quân úp, chỉ mình bạn được báo riêng đó là quân gì; với tùy chọn secret-captures (cách chơi “không ai thấy”) thì cả bạn cũng không được báo. Khi ván đấu kết thúc, toàn bộ cách chia quân được công bố cùng bằng chứng rằng nó không hề thay đổi.
rules-revised = Ván { $game } bắt đầu theo luật phiên bản { $from } và tiếp tục theo phiên bản { $to }, với thay đổi sau: { $changes }
rules-banqi = Banqi (cờ úp nửa bàn): cả 32 quân úp mặt trên bàn 4 × 8. Đến lượt, bạn lật một quân, đi một quân đã lật của mình một ô, hoặc ăn quân. Lần lật đầu tiên cho người đi trước màu của quân đó. Quân ăn được quân cùng cấp hoặc thấp hơn (tướng, sĩ, tượng, xe, mã, pháo, tốt), nhưng tốt ăn được tướng và tướng không ăn được tốt. Pháo ăn quân bằng cách nhảy qua đúng một quân. Bạn thắng khi đối thủ hết nước đi.

## Refusals

refuse-unknown-command = Tôi không biết lệnh { $command }. /help liệt kê các lệnh.
refuse-usage = Hãy viết như sau: { $usage }
refuse-bad-game-id = “{ $id }” không phải mã ván đấu (mã có dạng g7k2; /games liệt kê chúng). Hãy viết như sau: { $usage }
refuse-bad-challenge-id = “{ $id }” không phải mã thách đấu (có dạng c4f7k, hiện trong lời thách đấu). Hãy viết như sau: { $usage }
refuse-no-such-game = Không có ván { $game }. /games liệt kê các ván ở đây và của bạn.
refuse-no-game-here = Bạn không có ván nào đang chơi ở đây. Gửi /challenge để bắt đầu.
refuse-not-a-player = Bạn không phải người chơi của ván { $game }, nên không thể đi cờ, đầu hàng hay cầu hòa ở đó. Bạn có thể xem, hoặc tự bắt đầu một ván bằng /challenge.
refuse-not-a-player-here = Bạn không phải người chơi của các ván ở đây ({ $games }). Tự bắt đầu một ván bằng /challenge.
refuse-several-games = Bạn có nhiều ván ở đây ({ $games }): hãy nói rõ ván nào, ví dụ { $usage }
refuse-game-over = Ván { $game } đã kết thúc: { $result } Bắt đầu ván mới bằng /challenge.
refuse-board-old = Bàn cờ này đã cũ: ván { $game } đã đi tiếp. { $state } Hãy dùng các nút dưới bàn cờ mới nhất.
refuse-not-your-turn = Chưa đến lượt bạn: đang đến lượt { $player }. Tôi sẽ nhắc bạn khi đến lượt.
refuse-move-missing = Nước nào? Ví dụ /move h2e2.
refuse-unknown-notation = Tôi không đọc được “{ $text }” là một nước đi. Hãy viết tọa độ như h2e2, WXF như C2.5, hoặc chữ Hán như 炮二平五.
refuse-unknown-notation-banqi = Tôi không đọc được “{ $text }” là một nước Banqi. Viết một ô để lật, như c3, hoặc hai ô để đi hay ăn quân, như c3c4.
refuse-illegal-move = Nước này không được phép: { $reason }.
refuse-move-not-played = Không thể đi nước này: { $reason }.
refuse-challenge-option = Tôi không hiểu “{ $option }” trong lời thách đấu. Hãy dùng biến thể (jieqi, xiangqi, banqi), màu (red, black, random), luật (standard, pychess, tencent, vietnam), secret-captures hoặc thời gian mỗi nước (30m, 24h, 2d).
refuse-option-after-upgrade = “{ $option }” sẽ dùng được khi mọi bản của bot này đã chạy phiên bản mới (đang nâng cấp). Hãy thử lại sau vài phút, hoặc bỏ tùy chọn đó.
refuse-play-usage = Để chơi với tôi hãy viết /play bot, có thể thêm cấp độ (novice, casual, club, master), biến thể (jieqi, xiangqi, banqi), màu (red, black, random) hoặc luật, ví dụ /play bot club jieqi red. { play-levels }
play-levels = Sức mạnh các cấp độ, so với máy Fairy-Stockfish chơi cờ tướng 200 ms mỗi nước: novice ngang Skill Level 1 đến 2 của nó, casual khoảng 5 đến 6, club khoảng 10 đến 15, master ngang mức 20, sức mạnh tối đa của Fairy-Stockfish; trên thang Elo lấy sức mạnh tối đa đó làm 0, novice khoảng −980, casual −540, club −225 và master 0 (được 75 % điểm trước mức 15 và 50 % trước mức 20, cả khi mỗi bên có 1 giây mỗi nước; kết quả thay đổi theo máy).
refuse-play-option = Tôi không hiểu “{ $option }” trong /play bot. Hãy dùng cấp độ (novice, casual, club, master), biến thể (jieqi, xiangqi, banqi), màu (red, black, random), luật (standard, pychess, tencent, vietnam) hoặc secret-captures.
refuse-play-has-game = Bạn đang chơi ván { $game } với tôi ở đây. Hãy chơi xong (hoặc /resign) trước khi bắt đầu ván khác.
refuse-challenge-time = “{ $time }” không phải thời gian dùng được{ $reason ->
        [initial] : thời gian ván của phút + giây cộng thêm là số phút nguyên từ 1 đến 180
        [increment] : giây cộng thêm là số giây nguyên từ 0 đến 180
        [main] : thời gian ván trước byo-yomi tối đa 3 giờ
        [period] : mỗi lượt byo-yomi từ 5 giây đến 10 phút
        [periods] : byo-yomi có từ 1 đến 5 lượt
        [per-move] : thời gian mỗi nước là số phút nguyên từ 1 phút đến 30 ngày
       *[other] {""}
    }. Hãy viết đồng hồ ván: phút + giây cộng thêm (3+2) hoặc thời gian ván rồi số giây mỗi nước (10m|30s, hoặc 10m|3x30s cho ba lượt); thời gian mỗi nước (30m, 1d); hoặc một mức có sẵn: bullet (1+0), blitz (3+2), rapid (10+5), classical (30+20).
refuse-challenge-two-users = Mỗi lời thách đấu chỉ dành cho một người (hoặc cho bất kỳ ai nếu bạn không nêu tên ai).
refuse-challenge-private = Lời thách đấu phải đăng trong nhóm, nơi đối thủ nhìn thấy. Hãy thêm tôi vào một nhóm và gửi /challenge ở đó.
refuse-challenge-self = Bạn không thể tự thách đấu mình. Hãy nêu tên người khác, hoặc không nêu ai để bất kỳ ai cũng nhận lời được.
refuse-challenge-exists = Bạn đã thách đấu { $opponent } ở đây rồi: thách đấu { $challenge }, { $variant }, { $time }. Hãy chờ trả lời, hoặc rút lại bằng /cancel { $challenge } rồi thách đấu lại.
refuse-unknown-user = Tôi không biết { $handle } là ai. Hãy nhắc đến họ để nền tảng nhận ra: trên Discord chọn người trong tùy chọn của lệnh; trên Telegram trả lời một tin nhắn của họ bằng /challenge.
refuse-pair-has-game = Bạn và { $player } đã có một ván trong nhóm này ({ $game }). Hãy chơi xong ván đó trước, hoặc chơi ở nhóm khác.
refuse-no-such-challenge = Không có lời thách đấu { $challenge } nào đang mở: nó đã được nhận, bị rút lại hoặc đã hết hạn.
refuse-no-challenge-for-you = Ở đây không có lời thách đấu nào dành cho bạn. Gửi /challenge để tạo một lời.
refuse-several-challenges = Có nhiều lời thách đấu dành cho bạn ({ $challenges }): hãy nói rõ lời nào, ví dụ /accept { $example }
refuse-challenge-expired = Lời thách đấu { $challenge } đã hết hạn. Gửi /challenge để tạo lời mới.
refuse-accept-own = Đó là lời thách đấu của chính bạn: người khác phải nhận lời. /cancel để rút lại.
refuse-challenge-not-for-you = Lời thách đấu này dành cho { $player }, không phải cho bạn. Gửi /challenge để tạo lời của riêng bạn.
refuse-decline-open = Ai cũng có thể nhận một lời thách đấu mở, nên không cần từ chối; chỉ { $challenger } có thể rút lại bằng /cancel.
refuse-cancel-not-yours = Chỉ { $challenger } có thể rút lại lời thách đấu đó.
refuse-nothing-to-cancel = Bạn không có lời thách đấu nào đang mở ở đây để rút lại.
refuse-draw-already-offered = Bạn đã cầu hòa rồi; giờ tùy { $player } có đồng ý hay không.
refuse-peek-no-colour = Chưa ai có màu: lần lật đầu tiên sẽ quyết định. Hãy lật một quân trước.
refuse-watch-finished = Ván { $game } đã kết thúc; /history { $game } để xem lại.
refuse-watch-home = Ván { $game } đang diễn ra ngay trong nhóm này.
refuse-already-watching = Nhóm này đã theo dõi ván { $game }.
refuse-not-watching = Nhóm này không theo dõi ván nào của nhóm khác. /watch <mã> để bắt đầu theo dõi.
refuse-not-watching-game = Nhóm này không theo dõi ván { $game }.
refuse-unknown-variant = Tôi không biết biến thể “{ $variant }”: hãy chọn jieqi, xiangqi hoặc banqi.
refuse-setting-name = Không có cài đặt “{ $name }”: hãy chọn language, style, orientation, notation, board, tournaments hoặc timezone.
refuse-setting-value = “{ $value }” không phải lựa chọn cho { $name }: hãy chọn { $choices }.

## Problems

unreachable-player = Tôi không gửi được tin nhắn riêng cho { $player }, nên họ sẽ bỏ lỡ các thông tin riêng. { $player }: { $fix } Sau đó /peek cho bạn xem góc nhìn của mình.
unreachable-fix-telegram = hãy mở cuộc trò chuyện riêng với @{ $bot } và bấm Bắt đầu (Start).
unreachable-fix-discord = hãy cho phép thành viên máy chủ này nhắn tin riêng cho bạn (cài đặt Quyền riêng tư), hoặc nhắn riêng cho tôi trước.
unreachable-fix-local = hãy mở kênh riêng của bạn.
error-store = Đã có lỗi phía tôi khi lưu. Không có gì thay đổi: vui lòng thử lại sau giây lát.
error-busy = Có quá nhiều thay đổi cùng lúc với ván này. Không có gì thay đổi: vui lòng thử lại.
error-not-through = Yêu cầu đó không thành công và không có gì thay đổi: vui lòng gửi lại.
error-internal = Đã có lỗi phía tôi. Vui lòng thử lại.

## Command list: one line per command, shown by chat clients' command menus
## (Telegram setMyCommands, Discord slash command descriptions). At most 100 characters.

command-challenge = Thách đấu một người, hoặc bất kỳ ai
command-accept = Nhận lời thách đấu
command-decline = Từ chối lời thách đấu
command-cancel = Rút lại lời thách đấu của bạn
command-move = Đi một nước, ví dụ /move h2e2
command-board = Xem bàn cờ hiện tại
command-resign = Đầu hàng ván của bạn
command-draw = Cầu hòa, hoặc đồng ý hòa
command-games = Các ván ở đây và của bạn
command-watch = Theo dõi một ván của nhóm khác: /watch <mã>
command-unwatch = Ngừng theo dõi một ván
command-history = Các nước đi và FEN của một ván
command-peek = Xem riêng góc nhìn của bạn
command-play = Chơi với máy cờ có sẵn (novice, casual, club hoặc master; không tính hệ số)
engine-name = Máy cờ Jieqi ({ $level })
command-rules = Tóm tắt luật chơi
command-help = Danh sách lệnh
command-stats = Hệ số và thành tích của một người chơi
command-leaderboard = Bảng hệ số của nhóm này
command-settings = Ngôn ngữ, kiểu quân, hướng bàn cờ, ký hiệu

## Telegram adapter
button-not-ours = Nút này không còn dùng được nữa: hãy dùng lệnh thay thế (/help).

## Players' experience (service)

resign-confirm = Bạn thật sự muốn chịu thua ván { $game }? Bấm nút, hoặc gửi lại /resign trong vòng một phút, để xác nhận.
button-resign-confirm = Có, chịu thua
board-deadline = Hãy đi trước { $time } (còn { $left }).
time-per-move = { $time } mỗi nước
time-clock = đồng hồ { $control }
board-clocks = ⏱ { $first } { $first-time } · { $second } { $second-time }
refuse-time-is-up = Hết giờ: đồng hồ của bạn đã hết trước nước đi đó, nên ván đấu kết thúc vì hết giờ.
refuse-first-move-too-late = Quá muộn: trong ván có đồng hồ, mỗi bên phải đi nước đầu tiên trong vòng { $seconds } giây, nên ván đấu đã bị hủy. Không tính điểm.
refuse-clock-not-yet = Ván có đồng hồ sẽ bắt đầu được khi mọi tiến trình của bot đều chạy bản mới; thời gian mỗi nước (30m, 1d) dùng được ngay.
reminder-to-move = { $player }, đến lượt bạn đi trong ván { $game }: chỉ còn { $left }, đến { $time }. Nếu không đi, bạn sẽ thua vì hết giờ.
result-ratings = Điểm mới: { $changes }.
rating-change = { $player } { $rating } ({ $change })
refuse-move-extra-words = { $move } đã là một nước đi trọn vẹn, nhưng “{ $extra }” phía sau không thuộc về nước đi. Hãy chỉ gửi /move { $move }.
refuse-board-too-soon = Bàn cờ của ván { $game } vừa được đăng ở đây. Hãy thử lại sau { $seconds ->
   *[other] { $seconds } giây
}.
result-deal-pieces = { $side }: { $pieces }
result-verify = Kiểm tra cam kết đã công bố lúc bắt đầu: đó là sha256 của các chữ cái chia bài nối liền với salt, dưới dạng byte ASCII thuần ({ $bytes }). Lệnh này phải in ra { $commitment }: printf %s '{ $bytes }' | sha256sum
challenge-colour-banqi-first = lần lật đầu tiên quyết định màu quân; { $challenger } lật trước
challenge-colour-banqi-second = lần lật đầu tiên quyết định màu quân; { $challenger } lật sau
challenge-colour-banqi-random = lần lật đầu tiên quyết định màu quân; tung đồng xu để chọn ai lật trước
refuse-xiangqi-move-suffix = Cờ tướng không có quân úp, nên một nước đi chỉ gồm hai điểm, như h2e2; “{ $text }” còn thừa phía sau.

## Bài cờ

command-puzzle = Một bài cờ theo hệ số giải đố của bạn, trả lời bằng /move (quản trị viên: /puzzle daily 18)
stats-puzzles = Bài cờ: { $rating } ± { $deviation } (giải được { $solved }, trượt { $failed }; chuỗi { $streak }, dài nhất { $best })
puzzle-task-mate = { $side } đi: chiếu hết trong { $moves } nước
puzzle-task-material = { $side } đi và ăn được quân
puzzle-task-reveal = { $side } đi và ăn được quân, dù các quân úp là gì
puzzle-task-defence = { $side } đi: tìm nước duy nhất giữ được thế cờ
puzzle-posted = Bài cờ { $id } ({ $variant }, độ khó { $rating }): { $task }. Trả lời bằng /move, ví dụ /move { $example }.
puzzle-covered = Quân úp vẫn úp: chưa ai biết chúng là gì, và lời giải đúng dù chúng là gì.
puzzle-posted-daily = Bài cờ hôm nay { $id } ({ $variant }, độ khó { $rating }): { $task }. Ai cũng có thể trả lời bằng /move, ví dụ /move { $example }; người đầu tiên đi đúng cả đường giải sẽ giải được bài.
puzzle-replaced = Bài cờ { $id } kết thúc mà chưa ai giải được. Lời giải: { $solution }
puzzle-continue = { $player } đi { $move }: đúng! Tôi đáp { $reply }. { $side } đi tiếp.
puzzle-solved = { $player } đã giải bài cờ { $id } bằng { $move }! Lời giải: { $solution }. Hệ số giải đố của { $player }: { $rating } ({ $change }), chuỗi { $streak }.
puzzle-failed = { $move } chưa đúng: nước cần đi là { $expected }. Lời giải bài { $id }: { $solution }. Hệ số giải đố của bạn: { $rating } ({ $change }). Gửi /puzzle để có bài khác.
puzzle-failed-off-line = { $move } không hoàn thành nhiệm vụ. Lời giải bài { $id }: { $solution }. Hệ số giải đố của bạn: { $rating } ({ $change }). Gửi /puzzle để có bài khác.
puzzle-wrong-in-group = { $move } chưa đúng, nên bài { $id } tính là trượt với bạn: hệ số giải đố của bạn là { $rating } ({ $change }). Những người khác vẫn có thể giải; bạn sẽ thấy lời giải khi bài kết thúc.
puzzle-daily-is = Nhóm này có bài cờ mỗi ngày lúc { $hour } UTC (bài tới: { $next }). /puzzle daily off để dừng.
puzzle-daily-none = Nhóm này không có bài cờ mỗi ngày. Quản trị viên có thể bật bằng /puzzle daily 18 (giờ UTC).
puzzle-daily-set = Từ nay nhóm này có một bài cờ mỗi ngày lúc { $hour } UTC; bài đầu tiên lúc { $next }.
puzzle-daily-off = Nhóm này không còn bài cờ mỗi ngày.
refuse-puzzle-daily-hour = “{ $hour }” không phải là giờ: hãy viết /puzzle daily với giờ từ 0 đến 23 (UTC), như /puzzle daily 18, hoặc /puzzle daily off.
refuse-puzzle-option = Tôi không hiểu “{ $option }” trong /puzzle. Hãy viết /puzzle, hoặc /puzzle jieqi, /puzzle xiangqi, /puzzle banqi.
refuse-puzzle-unavailable = Hiện tôi không có bài cờ loại đó. Hãy thử biến thể khác, như /puzzle xiangqi.
refuse-no-puzzle = Không có bài cờ nào đang mở ở đây. Gửi /puzzle để nhận một bài.
refuse-puzzle-failed-already = Câu trả lời của bạn cho bài { $id } đã sai, nên bạn không thể trả lời lại. Hãy chờ những người khác, hoặc gửi /puzzle trong tin nhắn riêng với tôi để có bài của riêng bạn.
refuse-puzzle-over = Bạn không có ván nào ở đây, và bài cờ { $id } đã kết thúc. /puzzle cho bạn bài mới; /challenge để bắt đầu một ván.
refuse-puzzle-reveal-typed = Hãy viết nước đi mà không ghi quân úp là gì (chưa ai biết): /move { $move }
refuse-puzzle-not-a-move = “{ $text }” không phải là nước đi trong bài này ({ $reason }). Hãy viết tọa độ như h2e2, WXF như C2.5, hoặc chữ Hán như 炮二平五.
refuse-puzzle-not-a-move-banqi = “{ $text }” không phải là nước đi trong bài này ({ $reason }). Viết một ô để lật quân, như c3, hoặc hai ô để đi hoặc ăn, như c3c4.
refuse-puzzle-daily-admin = Chỉ quản trị viên của nhóm mới đặt được bài cờ mỗi ngày. Gửi /puzzle để có một bài ngay.

## Trang web của ván cờ
button-watch-live = Xem trực tiếp
button-replay = Xem lại
web-title = Ván { $game }
web-moves = Các nước đi
web-start = Khai cuộc
web-first = Thế cờ đầu
web-previous = Nước trước
web-next = Nước sau
web-last = Thế cờ mới nhất
web-live = Trực tiếp
web-reconnecting = Đang kết nối lại…
web-time-left = Thời gian đi cờ
web-over = Ván cờ đã kết thúc.
web-deal = Cách chia quân úp
web-commitment = Mã cam kết công bố lúc bắt đầu
web-check-ok = Đã kiểm tra trong trình duyệt của bạn: sha256 của cách chia và muối đúng bằng mã cam kết công bố lúc bắt đầu, nên cách chia đã cố định trước nước đi đầu tiên.
web-check-bad = Đã kiểm tra trong trình duyệt của bạn: sha256 của cách chia và muối KHÔNG khớp với mã cam kết công bố lúc bắt đầu!
web-check-unavailable = Trình duyệt của bạn không tính được sha256 ở đây; hãy kiểm tra bằng lệnh bên dưới.
web-not-found = Không có ván { $game } ở đây. Hãy xem lại đường dẫn, hoặc gửi /games trong nhóm.
web-bad-id = “{ $text }” không phải mã ván cờ: mã ván gồm bốn chữ cái hoặc chữ số, như g7k2.
web-too-many = Địa chỉ của bạn đang mở quá nhiều trang trực tiếp. Hãy đóng bớt rồi thử lại.
web-keys = Phím: ← → xem từng nước, Home và End về khai cuộc và thế cờ mới nhất.
web-no-page = Không có gì ở đây. Trang của một ván là /g/ và mã ván, như /g/g7k2: các bàn cờ trong nhóm có đường dẫn tới đó.
web-tournament-title = Giải đấu { $id }
web-tournament-summary = { $format }, { $variant }, { $time }. { $state ->
        [open] Đang nhận đăng ký
        [arena] Đấu trường đang diễn ra, đến { $end }
        [running] Vòng { $round }/{ $rounds }
        [finished] Đã kết thúc
       *[other] Đã hủy
    } · { $count } kỳ thủ
web-tournament-standings = Bảng xếp hạng
web-tournament-rank = Hạng
web-tournament-player = Kỳ thủ
web-tournament-points = Điểm
web-tournament-round = Vòng { $round }
web-tournament-board = Bàn
web-tournament-red = Đỏ
web-tournament-black = Đen
web-tournament-result = Kết quả
web-tournament-playing = đang đấu: xem
web-tournament-no-rounds = Chưa vòng nào được xếp cặp.
web-tournament-follows = Trang này theo dõi giải đấu: mỗi kết quả hiện ra khi ván cờ kết thúc.
web-tournament-not-found = Không có giải đấu { $id } ở đây. Hãy kiểm tra đường dẫn, hoặc hỏi trong nhóm bằng /tournament.
web-tournament-bad-id = “{ $text }” không phải mã giải đấu: mã giải gồm sáu chữ cái hoặc chữ số, như t4f7k2.

## Reviews (/review) and the PGN record
button-review = Phân tích ván cờ
command-review = Phân tích ván đã kết thúc: biểu đồ, các nước đắt giá nhất, độ chính xác
review-head = Phân tích ván { $game }: { $first } đấu với { $second }
review-judged = Mỗi nước đi được máy so với nước tốt nhất ở thế cờ đó.
review-judged-hidden = Mỗi nước đi được đánh giá theo những gì người đi biết lúc đó: quân úp được tính theo xác suất, không theo thứ nó lật ra sau này.
review-player = { $player }: độ chính xác { $accuracy }% · { $blunders } nước hỏng, { $mistakes } nước sai, { $inaccuracies } nước thiếu chính xác
review-costly = { $number } { $player } đi { $played }; máy chọn { $best }. Mất: { $drop } điểm phần trăm cơ hội thắng ({ $judgement }). Bàn cờ như { $player } thấy lúc đó.
review-good = nước tốt
review-inaccuracy = nước thiếu chính xác
review-mistake = nước sai
review-blunder = nước hỏng
review-queued = Ván { $game } { $ahead ->
    [0] đang được phân tích ngay
   *[other] sẽ được phân tích sau { $ahead } ván khác
}; kết quả sẽ đăng ở đây.
review-already-queued = Ván { $game } đã có trong hàng chờ phân tích ({ $ahead ->
    [0] kế tiếp
   *[other] còn { $ahead } ván trước nó
}); kết quả sẽ đăng ở đây.
refuse-review-queue-full = Có quá nhiều ván đang chờ phân tích; vui lòng thử lại sau vài phút.
review-failed = Không thể phân tích ván { $game }: không đọc được biên bản ván.
refuse-review-nothing-finished = Chưa có ván nào kết thúc trong cuộc trò chuyện này: hãy ghi mã ván, ví dụ /review g7k2.
refuse-review-not-finished = Ván { $game } chưa kết thúc (hoặc đã bị hủy), nên chưa có gì để phân tích.
history-pgn = Ván { $game } dạng PGN, để mở bằng các phần mềm cờ tướng khác.
history-pgn-jieqi = Ván cờ úp { $game } dạng PGN: các nước đi, quân lộ ra sau mỗi lần lật và cách chia quân úp, để mở bằng phần mềm biết cờ úp (như Fairy-Stockfish).

## Tùy chọn và lệnh con: mô tả Discord hiện bên mỗi tùy chọn của lệnh gạch chéo. Tối đa 100
## ký tự.

option-challenge-user = Thách đấu ai (để trống: ai cũng có thể nhận)
option-variant = Loại cờ (mặc định Cờ úp)
option-colour = Màu của bạn (mặc định ngẫu nhiên)
option-rules = Bộ luật (mặc định standard)
option-captures = Cờ úp: không ai biết quân úp bị ăn cho tới hết ván (mặc định: bên ăn biết)
option-time = Đồng hồ cho ván chơi ngay (3+2) hoặc thời gian mỗi nước (mặc định 1 ngày mỗi nước)
option-clock = Đồng hồ cho ván chơi ngay (3+2); không chọn thì 1 ngày mỗi nước
option-challenge = Mã lời thách đấu
option-move = h2e2, C2.5 hoặc 炮二平五 (Banqi: c3 để lật, c3c4 để đi)
option-game = Mã ván cờ (xem /games)
option-level = Độ mạnh của máy (mặc định casual)
option-rules-variant = Loại cờ
option-stats-user = Của ai (mặc định: của bạn)
option-lesson = Số bài học, hoặc list, restart, stop (để trống: học tiếp)
option-hour = Giờ (UTC), hoặc off; để trống để xem cài đặt
option-value = Giá trị mới
subcommand-settings-show = Xem cài đặt
subcommand-settings-language = Ngôn ngữ của nhóm
subcommand-settings-style = Cách vẽ quân cờ
subcommand-settings-orientation = Bàn cờ công khai nhìn từ phía nào
subcommand-settings-notation = Cách ghi nước đi
subcommand-settings-board = Mỗi nước một tin nhắn mới, hoặc sửa một tin nhắn
subcommand-settings-tournaments = Ai được tạo giải trong nhóm
subcommand-settings-timezone = Múi giờ của nhóm, cho giờ bắt đầu giải
choice-tournaments-admins = Chỉ quản trị viên
choice-tournaments-everyone = Mọi người
option-timezone = Độ lệch so với UTC: UTC+7, +8, UTC-3:30, UTC
subcommand-puzzle-new = Một bài cờ theo hệ số giải đố của bạn (ai ở đây cũng có thể trả lời)
subcommand-puzzle-daily = Quản trị viên: mỗi ngày một bài cờ trong kênh này vào giờ bạn chọn
choice-variant-jieqi = Cờ úp (揭棋): quân úp
choice-variant-xiangqi = Cờ tướng (象棋)
choice-variant-banqi = Cờ úp nửa bàn (半棋, Banqi)
choice-level-novice = Người mới
choice-level-casual = Thong thả
choice-level-club = Câu lạc bộ
choice-level-master = Kiện tướng
choice-colour-red = Đỏ
choice-colour-black = Đen
choice-colour-random = Ngẫu nhiên
choice-rules-standard = Tiêu chuẩn
choice-rules-tencent = Tencent (腾讯)
choice-rules-vietnam = Việt Nam
choice-time-10m = 10 phút
choice-time-1h = 1 giờ
choice-minutes-20 = 20 phút
choice-minutes-30 = 30 phút
choice-minutes-45 = 45 phút
choice-minutes-90 = 1,5 giờ
choice-minutes-120 = 2 giờ
choice-time-6h = 6 giờ
choice-time-1d = 1 ngày
choice-time-3d = 3 ngày
choice-time-7d = 7 ngày
choice-time-bullet = Bullet 1+0: mỗi bên 1 phút, chơi ngay
choice-time-blitz = Blitz 3+2: 3 phút + 2 giây mỗi nước, chơi ngay
choice-time-rapid = Rapid 10+5: 10 phút + 5 giây mỗi nước, chơi ngay
choice-time-classical = Classical 30+20: 30 phút + 20 giây mỗi nước, chơi ngay
choice-time-byoyomi = 10 phút, rồi 30 giây mỗi nước (byo-yomi), chơi ngay
choice-captures-secret = Không ai biết quân úp bị ăn (secret-captures)
choice-hour-off = Tắt
choice-style-characters = Chữ Hán (帥仕相)
choice-style-symbols = Ký hiệu
choice-orientation-red = Đỏ ở dưới
choice-orientation-black = Đen ở dưới
choice-notation-coordinates = Tọa độ (h2e2)
choice-notation-chinese = Chữ Hán (炮二平五 马二进三)
choice-notation-traditional = Chữ Hán phồn thể (炮二平五 傌二進三)
choice-board-new = Mỗi nước một tin nhắn mới
choice-board-edit = Sửa một tin nhắn

## Chơi trên bàn cờ web (liên kết riêng, Mini App Telegram)
button-open-board = Mở bàn cờ
button-play-on-board = Chơi trên bàn cờ
button-my-board = Mở bàn cờ của tôi
board-link-private = Bàn cờ riêng của bạn cho ván { $game }: chạm vào quân để đi. Liên kết này chỉ dành cho bạn, ai có nó đều có thể chơi thay bạn trong ván này trong { $hours } giờ, nên đừng chia sẻ.
local-personal-link = Bàn cờ của { $player } (chạm vào quân để đi): { $link }
refuse-board-link-over = Ván { $game } đã kết thúc: xem lại trên trang bàn cờ, không còn gì để chơi.
refuse-board-link-public = Liên kết bàn cờ riêng sẽ bị mọi người ở đây nhìn thấy: hãy dùng nút "Mở bàn cờ", hoặc hỏi tôi trong trò chuyện riêng.
refuse-board-link-off = Bot này chưa bật chơi trên bàn cờ web (người vận hành chưa đặt PUBLIC_URL và WEB_SECRET). Hãy chơi ở đây bằng /move.
web-known = Nước { $number } { $move }: quân úp bạn đã bắt là { $piece }.
web-known-title = Chỉ bạn biết
web-you = bạn
web-your-move = Đến lượt bạn: chạm vào một quân, rồi chạm vào nơi nó đến.
web-their-move = Đến lượt đối thủ.
web-resign-sure = Bạn thật sự chịu thua? Ván cờ sẽ kết thúc.
web-cancel = Hủy
web-sending = Đang gửi…
web-offline = Nước đi chưa đến được bot (mất kết nối). Chạm lại để thử lần nữa.
web-too-fast = Thao tác quá nhanh: hãy chờ vài giây rồi thử lại.
web-confirm-moves = Xác nhận mỗi nước trước khi gửi
web-confirm-play = Đi nước này
web-signed-out = Liên kết bàn cờ này không còn hiệu lực (đã hết hạn, hoặc dành cho ván khác hay người khác). Hãy lấy liên kết mới bằng nút dưới bàn cờ hoặc /board. Trong lúc đó bạn đang xem với tư cách khán giả.
web-not-playing = Bạn không chơi trong ván này: bạn đang xem.
web-unauthorized = Liên kết bàn cờ hoặc đăng nhập Telegram của bạn không hợp lệ ở đây. Hãy mở lại bàn cờ từ cuộc trò chuyện.
web-bad-action = Bàn cờ đã gửi điều bot không hiểu: { $reason }

## The Discord Activity (the board inside Discord)
button-play-in-discord = Chơi trong Discord
activity-title = Cờ úp trong Discord
activity-signing-in = Đang đăng nhập bằng Discord…
activity-sign-in-failed = Discord không cho bạn đăng nhập. Hãy đóng Activity rồi mở lại.
activity-outside = Đây là Activity Discord của bot: hãy mở nó từ Discord (trình khởi chạy ứng dụng, /launch, hoặc nút "Chơi trong Discord" dưới bàn cờ).
activity-signed-in-as = Đã đăng nhập:
activity-your-games = Ván của bạn
activity-channel-games = Các ván trong kênh này
activity-finished-games = Đã kết thúc ở đây
activity-no-games = Chưa có ván nào ở đây: bấm Ván mới để bắt đầu.
activity-play = Chơi
activity-watch = Xem
activity-replay = Xem lại
activity-your-turn = đến lượt bạn
activity-new-game = Ván mới
activity-opponent = Đối thủ
activity-the-bot = Bot
activity-variant = Biến thể
activity-send = Thách đấu
activity-sent = Lời thách đấu đã ở trong kênh, kèm nút Chấp nhận và Từ chối. Bàn cờ của bạn sẽ mở ở đây khi có người chấp nhận.
activity-back = ← Các ván
activity-command = Mở bàn cờ ngay trong Discord: các ván của kênh này, ván của bạn trước

## Tournaments (/tournament)
tournament-created = Giải { $id } do { $organiser } tạo: { $format }, { $variant }, { $time }. Đăng ký bằng /tournament join.
tournament-format-swiss = hệ Thụy Sĩ, { $rounds } vòng
tournament-format-round-robin = vòng tròn{ $cycles ->
        [2] , hai lượt
       *[other] {""}
    }
tournament-joined = { $player } đã tham gia giải ({ $count } kỳ thủ).
tournament-joined-late = { $player } tham gia muộn ({ $count } kỳ thủ): không có điểm cho các vòng đã lỡ, được xếp cặp từ vòng { $round }.
tournament-left = { $player } đã rút khỏi giải: không được xếp cặp nữa (kết quả trước đó được giữ).
tournament-cancelled = Giải { $id } đã bị { $player } hủy. Các ván đã bắt đầu được chơi tiếp như ván thường.
tournament-status = Giải { $id }: { $format }, { $variant }, { $time }. { $state ->
        [open] Đang nhận đăng ký
        [arena] Đấu trường đang diễn ra, đến { $end }
        [running] Vòng { $round } / { $rounds }
        [finished] Đã kết thúc
       *[other] Đã hủy
    }. { $count ->
        [0] Chưa có kỳ thủ nào.
       *[other] { $count } kỳ thủ: { $players }
    }
tournament-pairings = Vòng { $round } / { $rounds }: bảng xếp cặp. Mỗi ván được chơi ở đây như mọi ván; tin nhắn riêng cho bạn biết bạn cầm quân nào.
tournament-board = Bàn { $board }: { $first } (đỏ) – { $second } (đen), ván { $game }
tournament-bye-point = { $player } được miễn đấu (1 điểm).
tournament-bye-half = { $player } được miễn đấu nửa điểm.
tournament-bye-zero = { $player } nghỉ vòng này (không có điểm).
tournament-standings-title = Giải { $id } · vòng { $round } / { $rounds }
tournament-standings-after = Bảng xếp hạng sau vòng { $round } / { $rounds }:
tournament-standings-now = Bảng xếp hạng, vòng { $round } / { $rounds }:
tournament-finished = Giải đã kết thúc. { $count ->
        [0] Không ván nào kết thúc kịp giờ: không ai thắng.
        [one] Nhà vô địch: { $winners }!
       *[other] Đồng hạng nhất: { $winners }!
    }
tournament-stopped = Giải dừng tại đây: { $reason ->
        [too-few] còn chưa tới hai kỳ thủ để xếp cặp.
        [no-legal-pairing] không có cách xếp cặp vòng sau đúng luật (sẽ có người gặp lại nhau).
       *[other] không thể xếp cặp vòng sau.
    }
tournament-no-pairing = Không thể xếp cặp vòng sau.
tournament-trf = Giải { $id } theo định dạng TRF-16 của FIDE.
tournament-page = Cặp đấu, bảng xếp hạng và mọi ván cờ trực tiếp: { $url }
refuse-tournament-word = “{ $word }” không phải lệnh giải đấu. Cách dùng: { $usage }
refuse-tournament-rounds = Không thể chơi “{ $rounds }” vòng: giải hệ Thụy Sĩ có từ 1 đến { $max } vòng.
refuse-tournament-option = “{ $option }” không phải tùy chọn của giải. Cách dùng: { $usage }
refuse-tournament-private = Giải đấu diễn ra trong nhóm, nơi có các kỳ thủ. Hãy gửi /tournament ở đó.
refuse-tournament-admins = Chỉ quản trị viên của nhóm mới tạo được giải (Discord: Manage Server; Telegram: quản trị viên nhóm). Quản trị viên có thể cho mọi người cùng tạo: /settings tournaments everyone.
refuse-tournament-exists = Nhóm này đã có giải { $id }: /tournament để xem. Mỗi nhóm chỉ chạy một giải một lúc.
refuse-no-tournament = Nhóm này chưa có giải nào. Quản trị viên tạo giải: { $usage }
refuse-tournament-joined = Bạn đã ở trong giải này rồi.
refuse-tournament-withdrawn = Bạn đã rút khỏi giải này; không thể tham gia lại.
refuse-tournament-too-late = Đã quá muộn để tham gia: mọi vòng đã được xếp cặp (giải vòng tròn không nhận người vào muộn).
refuse-tournament-full = Giải đã đủ người ({ $max } kỳ thủ).
refuse-tournament-elsewhere = Bạn đang chơi giải { $id } ở nhóm khác: mỗi lúc một giải, để bạn không bao giờ phải chơi hai ván giải cùng lúc.
refuse-tournament-not-in = Bạn không ở trong giải này.
refuse-tournament-round-robin-withdraw = Khi giải vòng tròn đã bắt đầu, các cặp đấu là cố định: hãy xin thua các ván thay vì rút lui.
refuse-tournament-organiser = Chỉ { $organiser } (người tạo giải) hoặc quản trị viên nhóm mới làm được việc đó.
refuse-tournament-started = Giải đã bắt đầu rồi.
refuse-tournament-too-few-swiss = Giải Thụy Sĩ { $rounds } vòng cần ít nhất { $needed } kỳ thủ để không ai gặp lại cùng một đối thủ; hiện có { $count } người.
refuse-tournament-too-few = Giải cần ít nhất 2 kỳ thủ; hiện có { $count } người.
refuse-tournament-trf-swiss = TRF-16 là định dạng của giải hệ Thụy Sĩ, giải này thì không: /tournament standings để xem.
command-tournament = Giải đấu trong nhóm: tạo, tham gia, bắt đầu, bảng xếp hạng
subcommand-tournament-status = Tình hình giải đấu của nhóm
subcommand-tournament-swiss = Quản trị viên: tạo giải hệ Thụy Sĩ
subcommand-tournament-round-robin = Quản trị viên: tạo giải vòng tròn (tối đa 12 kỳ thủ)
subcommand-tournament-arena = Quản trị viên: tạo đấu trường (trong thời gian cố định, ghép lại ngay khi mỗi ván kết thúc)
subcommand-tournament-join = Tham gia giải của nhóm
subcommand-tournament-leave = Rời giải trước khi bắt đầu
subcommand-tournament-start = Người tạo hoặc quản trị viên: bắt đầu và xếp cặp vòng 1
subcommand-tournament-standings = Bảng xếp hạng
subcommand-tournament-withdraw = Không xếp cặp nữa (giữ kết quả đã có)
subcommand-tournament-trf = Giải Thụy Sĩ dưới dạng tệp TRF-16
subcommand-tournament-cancel = Người tạo hoặc quản trị viên: hủy giải
option-rounds = Số vòng, 1 đến 30 (mặc định 5)
option-cycles = Một lượt (gặp nhau một lần) hoặc hai lượt (hai lần, đổi màu quân)
option-minutes = Số phút (mặc định 60)
choice-cycles-single = Một lượt
choice-cycles-double = Hai lượt
refuse-tournament-over = Giải { $id } đã kết thúc: /tournament standings và /tournament trf vẫn xem được, và có thể tạo giải mới.
button-tournament-join = Tham gia
button-tournament-leave = Rời giải
tournament-starts-at = Giải tự bắt đầu lúc { $at } (sau { $left }); { $rated ->
        [unrated] các ván không tính điểm xếp hạng.
       *[rated] các ván tính điểm xếp hạng theo nhịp độ của chúng.
    }
tournament-starts-by-hand = { $organiser } hoặc quản trị viên bắt đầu bằng /tournament start; { $rated ->
        [unrated] các ván không tính điểm xếp hạng.
       *[rated] các ván tính điểm xếp hạng theo nhịp độ của chúng.
    }
tournament-not-started = Giải { $id } không bắt đầu đúng giờ: { $reason } { $organiser } hoặc quản trị viên có thể bắt đầu bằng /tournament start, hoặc hủy bằng /tournament cancel.
refuse-tournament-start-time = “{ $time }” không phải giờ bắt đầu dùng được: một giờ trong ngày theo múi giờ của nhóm (at 20:00; /settings cho biết múi giờ) hoặc một khoảng chờ (in 30m, in 2h), tối đa { $days } ngày sau.
tournament-bye-asked = { $player } nghỉ vòng { $round } và nhận nửa điểm.
refuse-tournament-bye-swiss = Chỉ giải hệ Thụy Sĩ mới cho nghỉ nửa điểm: cặp đấu của giải vòng tròn đã cố định, còn đấu trường không có vòng.
refuse-tournament-bye-twice = Bạn đã dùng lượt nghỉ nửa điểm trong giải này rồi (mỗi người một lần).
refuse-tournament-bye-late = Mọi vòng đã được xếp cặp: không còn vòng sau để nghỉ.
tournament-forfeit = { $player } không đi nước đầu trong ván { $game }: thua xử ({ $count ->
       *[other] lần thứ { $count }
    }).
tournament-withdrawn-absent = Bạn đã thua xử { $count } ván của giải { $id } vì không đi nước đầu, nên bạn bị rút khỏi giải: không được xếp cặp nữa. Kết quả đến nay vẫn giữ.
tournament-standings-final = Giải đã kết thúc, bảng xếp hạng không còn thay đổi: hình của nó nằm trong thông báo cuối ở trên. Vòng { $round } trên { $rounds }:
tournament-format-arena = đấu trường { $minutes } phút
refuse-arena-minutes = Không thể tổ chức đấu trường “{ $minutes }” phút: một đấu trường kéo dài từ 1 đến { $max } phút.
refuse-arena-over = Đấu trường đã kết thúc: không ván mới nào bắt đầu nữa. Bảng xếp hạng cuối nằm trong thông báo cuối cùng.
arena-started = Đấu trường { $id } đã bắt đầu: { $minutes } phút, đến { $end }. Khi ván của bạn kết thúc, bạn được ghép ngay với người đang chờ; thắng 2 điểm, hòa 1 điểm, nhân đôi sau hai trận thắng liên tiếp 🔥. Tham gia bất cứ lúc nào bằng /tournament join.
arena-joined = { $player } đã vào đấu trường ({ $count } người) và được ghép với người đang rảnh: ngay bây giờ, hoặc khi một ván kết thúc.
arena-back = { $player } đã trở lại đấu trường: được ghép lại từ bây giờ (điểm đã có vẫn giữ).
arena-pairings = Đấu trường { $id }, các ván mới (tin nhắn riêng cho bạn biết bạn cầm quân nào):
arena-game = { $first } (đỏ) – { $second } (đen), ván { $game }
arena-ended-playing = Hết giờ. { $count } ván còn đang chơi không được tính (chúng được chơi tiếp như ván thường).
arena-withdrawn-absent = Bạn không đi nước đầu trong ván { $game } của đấu trường { $id } nên bị xử thua, và không được ghép cặp nữa. Tham gia lại bằng /tournament join để chơi tiếp.
arena-standings-title = Đấu trường { $id } · { $state ->
        [over] chung cuộc
       *[running] đến { $end }
    }
arena-standings-now = Bảng xếp hạng đấu trường (điểm, 🔥 là đang chuỗi thắng: ván sau tính gấp đôi), đến { $end }:
arena-standings-final = Đấu trường đã kết thúc, bảng xếp hạng không còn thay đổi: hình của nó nằm trong thông báo cuối ở trên.
arena-standings-open = Đấu trường chưa bắt đầu: chưa có ván nào, chưa có bảng xếp hạng.
web-arena-games = Các ván
subcommand-tournament-bye = Nghỉ vòng sau, nhận nửa điểm (hệ Thụy Sĩ, một lần)
option-start = Giờ bắt đầu: 20:00 (múi giờ của nhóm) hoặc in 30m; bỏ trống thì bắt đầu tay
option-rated = Tính điểm xếp hạng (theo nhịp độ ván, mặc định) hoặc không
choice-rated = Tính điểm
choice-unrated = Không tính điểm
