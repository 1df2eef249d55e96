# 简体中文。键与 en.ftl 完全相同。

## Names

side-red = 红方
side-black = 黑方
seat-first = 先手（第一次翻子决定你的颜色）
seat-second = 后手（第一次翻子决定你的颜色）
variant-xiangqi = 象棋
variant-jieqi = 揭棋
variant-banqi = 暗棋
role-general = 将
role-advisor = 士
role-elephant = 象
role-chariot = 车
role-cannon = 炮
role-horse = 马
role-soldier = 兵
piece-name = { $side }的{ $role }
player-with-side = { $player }（{ $side }）
duration-days = { $n } 天
duration-hours = { $n } 小时
duration-minutes = { $n } 分钟
duration-seconds = { $n } 秒

## Buttons

button-accept = 接受
button-decline = 拒绝
button-resign = 认输
button-draw = 提和
button-accept-draw = 同意和棋

## Challenges

challenge-anyone = 任何人
challenge-colour-red = { $challenger }执红
challenge-colour-black = { $challenger }执黑
challenge-colour-random = 颜色随机
challenge-posted = { $challenger } 向 { $opponent } 发起{ $variant }挑战（{ $preset } 规则，{ $time }；{ $colour }）。
    请在 { $expiry } 内点击按钮或发送 /accept 接受。挑战编号 { $challenge }。
challenge-accepted = { $player } 已接受：对局 { $game } 开始。
challenge-declined = { $player } 已拒绝。
challenge-withdrawn = { $player } 已撤回。
challenge-expired = 无人及时接受，挑战已过期。
accepted-elsewhere = 你接受了 { $challenger } 的挑战。对局 { $game } 在发起挑战的群里进行。

## 再来一局：再战与约战

button-rematch = 再战一局
button-take-seek = 应战
button-cancel-seek = 取消
command-rematch = 交换先后再下一局同样的对局（对局结果下的“再战一局”按钮）
command-seek = 快棋：发出任何人都可应战的公开挑战（不指定时间则为 3+2）
option-opponent = 对手：我（内置引擎，默认），或本群任何人（快棋）
choice-opponent-bot = 内置引擎
choice-opponent-anyone = 本群任何人（快棋）
option-seek-time = 棋钟（默认 3+2，超快棋）
rematch-offered = { $challenger } 邀请 { $opponent } 再战对局 { $game }：{ $variant }（{ $preset } 规则，{ $time }；这次{ $colour }）。
    请在 { $expiry } 内点击按钮、发送 /accept 或点“再战一局”接受。挑战编号 { $challenge }。
rematch-offer-sent = 你向 { $player } 发出的再战邀请已发到群里（挑战 { $challenge }）：对方接受或点“再战一局”后对局开始。
seek-posted = { $challenger } 正在找人下棋：{ $variant }（{ $preset } 规则，{ $time }；{ $colour }）。本群任何人都可以在 { $expiry } 内点击按钮或发送 /accept 应战。挑战编号 { $challenge }。
refuse-rematch-not-a-player = 只有对局 { $game } 的双方（{ $first } 和 { $second }）可以要求再战。用 /challenge 或 /seek 开始你自己的对局。
refuse-rematch-running = 对局 { $game } 还在进行中：结果出来后才能再战。
refuse-rematch-tournament = 对局 { $game } 是比赛对局：比赛负责编排对局，所以没有再战。
refuse-rematch-no-game = 你在这里没有已结束的对局可以再下。请指明是哪一局：/rematch <编号>（/games 会列出）。
refuse-rematch-offered = 你已经在这里向 { $player } 发起了对局（挑战 { $challenge }）：请等待对方回复，或用 /cancel { $challenge } 撤回。
refuse-seek-private = 约战要发在群聊里，其他人才能应战。请把我加入群组，然后在那里发送 /seek。
refuse-seek-user = 约战对任何人开放，所以不指定对手。要挑战某人，请用 /challenge @对方。
refuse-seek-option = 我不理解约战中的“{ $option }”。可用：时间（3+2、10m|30s、blitz、1d）、变体（jieqi、xiangqi、banqi）、颜色（red、black、random）、规则（standard、pychess、tencent、vietnam）或 secret-captures。

## Game start

game-started = 对局 { $game } 开始：{ $first } 对 { $second }。
game-terms = { $variant } · { $preset } 规则 · { $time }
game-commitment = 公平承诺 sha256(deal ‖ salt)：{ $commitment }。对局结束时会公布发牌和盐值，任何人都可以验证发牌从未改变。
dm-game-started = 你与 { $opponent } 的{ $variant }对局 { $game } 已开始。你是{ $side }。
dm-secret-captures = 本局使用 secret-captures：被吃的暗子是什么，对局结束公布全部发牌之前谁都不知道，吃子方也不知道。随时发送 /peek 查看你自己的视角。
dm-reveals-here = 当你吃掉暗子时，我会在这里私下告诉你它是什么。随时发送 /peek 查看你自己的视角。

## Moves and boards

board-moves = 对局 { $game } · { $moves }
board-move = { $number } { $move }，{ $player } 走
board-moves-separator = ；
board-to-move = 轮到 { $player } 走棋。
board-check = 将军！
board-repost = 对局 { $game }：{ $first } 对 { $second }，已走 { $plies ->
   *[other] { $plies } 步
}。
board-last-move = 上一步：{ $number } { $move }
board-final = 对局 { $game } 已结束。
dm-reveal = 对局 { $game }，第 { $number } 步 { $move }：你吃掉的暗子是{ $piece }。只有你知道。

## Draws

draw-offered = { $player } 在对局 { $game } 中提和。{ $opponent }：点击按钮或发送 /draw 同意；走棋即表示拒绝。
draw-offer-accepted = { $player } 在对局 { $game } 中的提和已被接受。
draw-offer-lapsed = { $player } 在对局 { $game } 中的提和已因对方走棋而被拒绝。
draw-offer-closed = { $player } 在对局 { $game } 中的提和已关闭：对局已结束。

## Results

result-head = 对局 { $game } 已结束。
result-win = { $winner } 获胜：{ $reason }。
result-draw = 和棋：{ $reason }。
result-aborted = 对局已取消：双方尚未各走一步就结束了。不计等级分。
result-aborted-rules = 对局已取消：按现行规则无法再重现其着法。不计等级分。
result-aborted-no-first-move = 对局已取消：{ $player } 未在时限内走出第一步。不计等级分。
result-tournament-forfeit = { $player } 没有按时走第一步，弃权判负（比赛 { $id }）。不计等级分。
result-proof = 发牌为 { $deal }，盐值（salt）为 { $salt }。这些字母依次表示暗子（大写为红方，小写为黑方）；逐格列出如下：
result-record = 对局 { $game } 的着法：{ $moves }
reason-checkmate = 将死
reason-no-legal-move = 对方无棋可走
reason-resignation = 对方认输
reason-timeout = 对方超时
reason-perpetual-check = 对方长将
reason-perpetual-chase = 对方长捉
reason-agreement = 双方同意
reason-no-progress = 太久没有吃子
reason-repetition = 同一局面重复太多次
reason-timeout-cannot-mate = 一方超时，但对方已无法将死

## Lists and views

games-here = 本群的对局：
games-none-here = 本群没有进行中的对局。发送 /challenge 开始一局。
games-yours-elsewhere = 你在其他群的对局：
games-line = { $game }：{ $variant }，已走 { $plies ->
   *[other] { $plies } 步
}，轮到 { $player }
history-head = 对局 { $game }：{ $first } 对 { $second }
history-moves = 着法：{ $moves }
history-fen = 公开 FEN：{ $fen }
history-gif = 对局 { $game } 逐步回放。
peek-text = 你在对局 { $game } 中的视角（你是{ $side }）。FEN：{ $fen }
peek-sent-privately = 我已私信发送你的视角。
watch-started = 本群现在关注对局 { $game }（{ $first } 对 { $second }）。发送 /unwatch 取消。
watch-stopped = 本群已不再关注：{ $games }。
stats-head = { $player } 的等级分：
stats-line = { $variant }（{ $speed }）：{ $rating } ± { $deviation }（胜 { $wins }，负 { $losses }，和 { $draws }）
stats-none = 还没有计分对局。
leaderboard-head = 本群{ $variant }排行榜：
leaderboard-empty = 这里还没有人完成过计分的{ $variant }对局。
speed-bullet = 子弹棋
speed-blitz = 超快棋
speed-rapid = 快棋
speed-classical = 慢棋
speed-correspondence = 通讯棋
leaderboard-speed = { $speed }：
leaderboard-empty-speed = 这里还没有人完成过计分的{ $variant }{ $speed }对局。
result-ratings-speed = 新的等级分（{ $speed }）：{ $changes }。
option-leaderboard-speed = 哪种用时（默认列出所有下过的）
refuse-leaderboard-word = “{ $word }”既不是棋种（jieqi、xiangqi、banqi），也不是用时类别（bullet、blitz、rapid、classical、correspondence）。
leaderboard-line = { $rank }. { $player }：{ $rating }（{ $games ->
   *[other] { $games } 局
}）

## Settings

settings-current = 本群设置：语言 { $language }，棋子 { $style }，棋盘视角 { $orientation }，记谱 { $notation }，棋盘消息 { $board }，可创建比赛者 { $tournaments }，时区 { $zone }。
    修改方法：/settings language en|zh|vi，/settings style characters|symbols，/settings orientation red|black，/settings notation wxf|coordinates|chinese|traditional，/settings board new|edit，/settings tournaments admins|everyone，/settings timezone UTC+8。
    你自己的私人棋图：/settings my-style characters|symbols|chat，/settings my-orientation red|black|own。
settings-changed = 已保存。本群设置：语言 { $language }，棋子 { $style }，棋盘视角 { $orientation }，记谱 { $notation }，棋盘消息 { $board }，可创建比赛者 { $tournaments }，时区 { $zone }。
settings-personal = 已保存，仅对你有效：你的私人棋图（/peek、私信翻子）中棋子{ $style ->
        [chat] 跟随本群样式
        [characters] 用汉字
       *[symbols] 用符号
    }，{ $orientation ->
        [own] 从你自己一方看
        [red] 从红方看
       *[black] 从黑方看
    }。
refuse-settings-admins = 只有本群管理员才能修改本群设置（Discord：“管理服务器”权限；Telegram：群管理员）。你自己的棋图由你自己选：/settings my-style symbols，/settings my-orientation black。
refuse-setting-zone = “{ $value }”不是我能识别的时区：请写与 UTC 的时差，在 UTC-12 到 UTC+14 之间，例如 UTC+8、+7、UTC+05:30、UTC-3:30 或 UTC。
refuse-setting-not-yet = 等本机器人的所有进程都运行新版本后，才能修改这项设置；其他设置现在就可以改。

## Guides

help-text = 命令：
    /challenge [@用户] [jieqi|xiangqi|banqi] [red|black|random] [standard|pychess|tencent|vietnam] [secret-captures] [每步时间，如 30m、24h、2d]：向某人或任何人发起挑战。secret-captures：被吃的暗子对局结束前谁都不知道是什么，吃子方也不知道。
    /accept、/decline、/cancel：接受、拒绝或撤回挑战。
    /seek [3+2、10m|30s、blitz…] [变体]：本群任何人都可应战的快棋（默认 3+2）。/rematch [编号]：交换先后再下一局。
    /move h2e2（也可用 WXF 如 C2.5 或中文如 炮二平五；暗棋：c3 翻子，c3c4 走子）：走棋。本群有多局时：/move <编号> h2e2。
    /board：当前棋盘。/history [编号]：着法和 FEN。/review [编号]：已结束对局的复盘。
    /resign、/draw：认输；提和或同意和棋。
    /peek：私下查看你自己的视角。/games：本群和你的对局。
    /play bot [novice|casual|club|master] [jieqi|xiangqi|banqi] [red|black|random] [secret-captures]：与内置引擎（我）对弈（不计等级分）。
    { play-levels }
    /puzzle [jieqi|xiangqi|banqi]：按你的解题等级分出一道题，用 /move 作答；群里任何人都可以作答。/puzzle daily 18（管理员）：每天 UTC 18:00 出一道题；/puzzle daily off 停止。
    /watch <编号>、/unwatch：关注其他群的对局。
    /rules [变体]：简要规则。/stats [@用户]、/leaderboard [变体] [用时]：等级分（bullet 子弹棋、blitz 超快棋、rapid 快棋、classical 慢棋、correspondence 通讯棋）。
    /settings：语言、棋子样式、棋盘视角、记谱方式、棋盘消息、谁可创建比赛、时区。
    /learn：规则课程，一课一课地学，用 /move 作答（/learn list、/learn <编号>、/learn restart、/learn stop）。
    /tournament：本群比赛（管理员，或设置 /settings tournaments everyone 后所有人：/tournament swiss 5 rounds 3+2 at 20:00；然后 join、start、standings、bye、withdraw、trf）。
start-greeting = 你好！我在群聊中主持揭棋、象棋和暗棋对局，并会在这里私下告诉你暗子的真身。把我加入群聊并在群里发送 /challenge。/help 列出所有命令。
rules-xiangqi = 象棋：将死对方的将帅。将帅和士不出九宫，象不过河且塞象眼时不能走，马被蹩腿时不能走，炮隔一子吃子，兵过河后可横走。两将不能在同一直线上直接照面。无棋可走的一方判负。
rules-jieqi = 揭棋：带暗子的象棋。除将帅外，所有棋子都背面朝上，随机打乱后放在己方的初始位置上。暗子按所在位置的棋子行走；第一次走动时翻开，此后按真身行走（翻开的士和象可以走遍全盘）。吃掉暗子时，只有你会私下得知它是什么；若选用 secret-captures（“谁都不知道”的玩法），连你也不会得知。对局结束时公布全部发牌，并附上从未改动的证明。
rules-revised = 对局 { $game } 开始时使用第 { $from } 版规则，现按第 { $to } 版继续，改动如下：{ $changes }
rules-banqi = 暗棋（半盘棋）：32 枚棋子全部背面朝上放在 4 × 8 的棋盘上。轮到你时，可以翻开一枚棋子、把己方明子走一格，或吃子。第一次翻子决定先手方的颜色。棋子可以吃同级或更低级的棋子（将、士、象、车、马、炮、兵），但兵可以吃将，将不能吃兵。炮须隔一子才能吃子。对方无棋可走时你获胜。

## Refusals

refuse-unknown-command = 我不认识 { $command }。/help 列出所有命令。
refuse-usage = 请这样写：{ $usage }
refuse-bad-game-id = “{ $id }”不是对局编号（编号形如 g7k2，/games 可以列出）。请这样写：{ $usage }
refuse-bad-challenge-id = “{ $id }”不是挑战编号（形如 c4f7k，显示在挑战消息中）。请这样写：{ $usage }
refuse-no-such-game = 没有对局 { $game }。/games 列出本群和你的对局。
refuse-no-game-here = 这里没有你正在进行的对局。发送 /challenge 开始一局。
refuse-not-a-player = 你不是对局 { $game } 的棋手，不能在其中走棋、认输或提和。你可以观战，或发送 /challenge 开始自己的对局。
refuse-not-a-player-here = 你不是本群对局（{ $games }）的棋手。发送 /challenge 开始自己的对局。
refuse-several-games = 你在这里有多局对局（{ $games }）：请说明是哪一局，例如 { $usage }
refuse-game-over = 对局 { $game } 已经结束：{ $result } 发送 /challenge 开始新的一局。
refuse-board-old = 这是旧棋盘：对局 { $game } 已经往下走了。{ $state } 请用最新棋盘下面的按钮。
refuse-not-your-turn = 还没轮到你：现在轮到 { $player } 走。轮到你时我会提醒你。
refuse-move-missing = 走哪一步？例如 /move h2e2。
refuse-unknown-notation = 我无法把“{ $text }”识别为着法。请用坐标（如 h2e2）、WXF（如 C2.5）或中文（如 炮二平五）。
refuse-unknown-notation-banqi = 我无法把“{ $text }”识别为暗棋着法。写一个格子来翻子，如 c3；或写两个格子来走子或吃子，如 c3c4。
refuse-illegal-move = 这步棋不允许：{ $reason }。
refuse-move-not-played = 这步棋无法走：{ $reason }。
refuse-challenge-option = 我不理解挑战中的“{ $option }”。可用：变体（jieqi、xiangqi、banqi）、颜色（red、black、random）、规则（standard、pychess、tencent、vietnam）、secret-captures 或每步时间（30m、24h、2d）。
refuse-option-after-upgrade = “{ $option }”要等本机器人的所有副本都升级到新版本后才能使用（正在升级）。请几分钟后再试，或不使用该选项。
refuse-play-usage = 要和我下棋，请写 /play bot，可加上级别（novice、casual、club、master）、变体（jieqi、xiangqi、banqi）、颜色（red、black、random）或规则，例如 /play bot club jieqi red。 { play-levels }
play-levels = 各级别的强度（与引擎 Fairy-Stockfish 下象棋、每步 200 毫秒比较）：novice 约相当于它的 Skill Level 1 至 2，casual 约 5 至 6，club 约 10 至 15，master 约相当于 20，即 Fairy-Stockfish 全力；以该全力为 0 的等级分（Elo）计，novice 约 −980，casual 约 −540，club 约 −225，master 约 0（对 15 得分 75%，对 20 得分 50%，双方每步 1 秒时也是如此；结果随机器而异）。
refuse-play-option = 我不理解 /play bot 中的“{ $option }”。可用：级别（novice、casual、club、master）、变体（jieqi、xiangqi、banqi）、颜色（red、black、random）、规则（standard、pychess、tencent、vietnam）或 secret-captures。
refuse-play-has-game = 你已经在这里和我下着对局 { $game }。请先下完（或 /resign）再开新局。
refuse-challenge-time = “{ $time }”不是可用的时间{ $reason ->
        [initial] ：分钟 + 加秒的局时须为 1 到 180 整分钟
        [increment] ：每步加秒须为 0 到 180 整秒
        [main] ：读秒前的局时最长 3 小时
        [period] ：每次读秒须为 5 秒到 10 分钟
        [periods] ：读秒次数为 1 到 5 次
        [per-move] ：每步时间须为 1 分钟到 30 天的整分钟
       *[other] {""}
    }。请写棋钟：分钟 + 加秒（3+2），或局时加读秒（10m|30s；10m|3x30s 为三次读秒）；或每步时间（30m、1d）；或预设：bullet（1+0）、blitz（3+2）、rapid（10+5）、classical（30+20）。
refuse-challenge-two-users = 一次挑战只能针对一个人（不指定任何人则任何人都可以接受）。
refuse-challenge-private = 挑战要在群聊中发起，对手才能看到。把我加入群聊并在群里发送 /challenge。
refuse-challenge-self = 你不能挑战自己。请指定其他人，或不指定任何人让任何人都可以接受。
refuse-challenge-exists = 你已经在这里向 { $opponent } 发起了挑战：挑战 { $challenge }，{ $variant }，{ $time }。请等待回应，或用 /cancel { $challenge } 撤回后重新挑战。
refuse-unknown-user = 我不知道 { $handle } 是谁。请提及对方，让平台识别：在 Discord 上在命令选项中选择用户；在 Telegram 上回复对方的消息并发送 /challenge。
refuse-pair-has-game = 你和 { $player } 在本群已经有一局对局（{ $game }）。请先下完，或在其他群对弈。
refuse-no-such-challenge = 没有进行中的挑战 { $challenge }：它已被接受、撤回或已过期。
refuse-no-challenge-for-you = 这里没有给你的挑战。发送 /challenge 发起一个。
refuse-several-challenges = 有多个给你的挑战（{ $challenges }）：请说明是哪一个，例如 /accept { $example }
refuse-challenge-expired = 挑战 { $challenge } 已过期。发送 /challenge 发起新的挑战。
refuse-accept-own = 这是你自己的挑战，需要别人接受。/cancel 可以撤回。
refuse-challenge-not-for-you = 这个挑战是给 { $player } 的，不是给你的。发送 /challenge 发起你自己的挑战。
refuse-decline-open = 公开挑战任何人都可以接受，所以无需拒绝；只有 { $challenger } 可以用 /cancel 撤回。
refuse-cancel-not-yours = 只有 { $challenger } 可以撤回这个挑战。
refuse-nothing-to-cancel = 你在这里没有可以撤回的挑战。
refuse-draw-already-offered = 你已经提和了，现在由 { $player } 决定是否同意。
refuse-peek-no-colour = 还没有人有颜色：第一次翻子决定颜色。请先翻一枚棋子。
refuse-watch-finished = 对局 { $game } 已结束；/history { $game } 可以查看。
refuse-watch-home = 对局 { $game } 就在本群进行。
refuse-already-watching = 本群已经在关注对局 { $game }。
refuse-not-watching = 本群没有关注其他群的对局。/watch <编号> 开始关注。
refuse-not-watching-game = 本群没有关注对局 { $game }。
refuse-unknown-variant = 我不认识变体“{ $variant }”：请选择 jieqi、xiangqi 或 banqi。
refuse-setting-name = 没有设置项“{ $name }”：请选择 language、style、orientation、notation、board、tournaments 或 timezone。
refuse-setting-value = “{ $value }”不是 { $name } 的可选值：请选择 { $choices }。

## Problems

unreachable-player = 我无法给 { $player } 发送私信，因此 TA 会错过私下的翻子信息。{ $player }：{ $fix } 然后用 /peek 查看你自己的视角。
unreachable-fix-telegram = 请打开与 @{ $bot } 的私聊并点击“开始”。
unreachable-fix-discord = 请允许本服务器成员给你发私信（隐私设置），或先给我发一条私信。
unreachable-fix-local = 请打开你的私聊频道。
error-store = 保存时我这边出了问题。没有任何改动，请稍后再试。
error-busy = 这局棋同时有太多改动。没有任何改动，请再试一次。
error-not-through = 这次没有成功，什么也没有改变：请再发一次。
error-internal = 我这边出了问题。请再试一次。

## Command list: one line per command, shown by chat clients' command menus
## (Telegram setMyCommands, Discord slash command descriptions). At most 100 characters.

command-challenge = 向某人或任何人发起对局挑战
command-accept = 接受挑战
command-decline = 拒绝挑战
command-cancel = 撤回你的挑战
command-move = 走棋，例如 /move h2e2
command-board = 显示当前棋盘
command-resign = 认输
command-draw = 提和，或同意和棋
command-games = 本群和你的对局
command-watch = 关注其他群的对局：/watch <编号>
command-unwatch = 取消关注对局
command-history = 对局的着法和 FEN
command-peek = 私下查看你自己的视角
command-play = 与内置引擎对弈（novice、casual、club 或 master；不计等级分）
engine-name = 揭棋机器人（{ $level }）
command-rules = 简要规则
command-help = 命令列表
command-stats = 棋手的等级分和战绩
command-leaderboard = 本群等级分排行榜
command-settings = 语言、棋子样式、棋盘视角、记谱方式

## Telegram adapter
button-not-ours = 这个按钮已经失效了：请改用命令（/help）。

## Players' experience (service)

resign-confirm = 你确定要认输对局 { $game } 吗？请在一分钟内按下按钮或再次发送 /resign 以确认。
button-resign-confirm = 确认认输
board-deadline = 请在 { $time } 之前走棋（还剩 { $left }）。
time-per-move = 每步 { $time }
time-clock = 棋钟 { $control }
board-clocks = ⏱ { $first } { $first-time } · { $second } { $second-time }
refuse-time-is-up = 时间到：你在这步棋之前已用完时间，本局超时结束。
refuse-first-move-too-late = 太迟了：计时对局中双方须在 { $seconds } 秒内走出第一步，本局已取消，不计等级分。
refuse-clock-not-yet = 等本机器人的所有进程都运行新版本后，才能开始带棋钟的对局；每步时间（30m、1d）现在就可以用。
reminder-to-move = { $player }，对局 { $game } 轮到你走棋：只剩 { $left }，截止 { $time }。不走棋将超时判负。
result-ratings = 新的等级分：{ $changes }。
rating-change = { $player } { $rating }（{ $change }）
refuse-move-extra-words = { $move } 已经是完整的一步棋，但后面的“{ $extra }”不属于这步棋。请只发送 /move { $move }。
refuse-board-too-soon = 对局 { $game } 的棋盘刚刚在这里发过。请在 { $seconds ->
   *[other] { $seconds } 秒
}后再试。
result-deal-pieces = { $side }：{ $pieces }
result-verify = 验证开局时公布的承诺值：它是发牌字母紧接盐值（纯 ASCII 字节：{ $bytes }）的 sha256。下面的命令应输出 { $commitment }：printf %s '{ $bytes }' | sha256sum
challenge-colour-banqi-first = 第一次翻子决定颜色；{ $challenger } 先翻
challenge-colour-banqi-second = 第一次翻子决定颜色；{ $challenger } 后翻
challenge-colour-banqi-random = 第一次翻子决定颜色；由掷硬币决定谁先翻
refuse-xiangqi-move-suffix = 象棋没有暗子，一步棋只写两个点，例如 h2e2；“{ $text }”在两个点后面多了内容。

## 谜题

command-puzzle = 按你的解题等级分出一道题，用 /move 作答（管理员：/puzzle daily 18）
stats-puzzles = 谜题：{ $rating } ± { $deviation }（解出 { $solved }，失败 { $failed }；连胜 { $streak }，最佳 { $best }）
puzzle-task-mate = { $side }走：{ $moves } 步杀
puzzle-task-material = { $side }走，得子
puzzle-task-reveal = { $side }走，无论暗子是什么都能得子
puzzle-task-defence = { $side }走：找出唯一能守住的一步
puzzle-posted = 谜题 { $id }（{ $variant }，难度 { $rating }）：{ $task }。用 /move 作答，例如 /move { $example }。
puzzle-covered = 暗子保持盖着：现在谁也不知道它们是什么，答案无论它们是什么都成立。
puzzle-posted-daily = 今日谜题 { $id }（{ $variant }，难度 { $rating }）：{ $task }。任何人都可以用 /move 作答，例如 /move { $example }；第一个走完正确着法的人解出此题。
puzzle-replaced = 谜题 { $id } 未被解出就结束了。答案：{ $solution }
puzzle-continue = { $player } 走了 { $move }：正确！我应 { $reply }。{ $side }继续走。
puzzle-solved = { $player } 用 { $move } 解出了谜题 { $id }！答案：{ $solution }。{ $player } 的解题等级分：{ $rating }（{ $change }），连胜 { $streak }。
puzzle-failed = { $move } 不对：正确的一步是 { $expected }。谜题 { $id } 的答案：{ $solution }。你的解题等级分：{ $rating }（{ $change }）。发送 /puzzle 再来一题。
puzzle-failed-off-line = { $move } 没有完成任务。谜题 { $id } 的答案：{ $solution }。你的解题等级分：{ $rating }（{ $change }）。发送 /puzzle 再来一题。
puzzle-wrong-in-group = { $move } 不对，所以谜题 { $id } 对你算作失败：你的解题等级分为 { $rating }（{ $change }）。其他人仍可解题；谜题结束时你会看到答案。
puzzle-daily-is = 本群每天 UTC { $hour } 有一道每日谜题（下一道：{ $next }）。/puzzle daily off 停止。
puzzle-daily-none = 本群没有每日谜题。管理员可以用 /puzzle daily 18（UTC 小时）开启。
puzzle-daily-set = 本群今后每天 UTC { $hour } 有一道谜题；第一道在 { $next }。
puzzle-daily-off = 本群不再有每日谜题。
refuse-puzzle-daily-hour = “{ $hour }”不是一个小时数：请写 /puzzle daily 加 0 到 23 的小时（UTC），如 /puzzle daily 18，或 /puzzle daily off。
refuse-puzzle-option = 我不明白 /puzzle 中的“{ $option }”。请写 /puzzle，或 /puzzle jieqi、/puzzle xiangqi、/puzzle banqi。
refuse-puzzle-unavailable = 我现在没有这类谜题。换一种棋试试，例如 /puzzle xiangqi。
refuse-no-puzzle = 这里没有进行中的谜题。发送 /puzzle 出一道。
refuse-puzzle-failed-already = 你对谜题 { $id } 的回答已经错了，不能再答。请等其他人，或在与我的私聊中用 /puzzle 要一道自己的题。
refuse-puzzle-over = 你在这里没有对局，谜题 { $id } 也已结束。/puzzle 出一道新题；/challenge 开始一局。
refuse-puzzle-reveal-typed = 请不要写出暗子是什么（还没人知道）：/move { $move }
refuse-puzzle-not-a-move = “{ $text }”不是这道谜题中的着法（{ $reason }）。请写坐标如 h2e2、WXF 如 C2.5，或中文如 炮二平五。
refuse-puzzle-not-a-move-banqi = “{ $text }”不是这道谜题中的着法（{ $reason }）。写一个格子翻子，如 c3；写两个格子走子或吃子，如 c3c4。
refuse-puzzle-daily-admin = 只有群管理员可以设置每日谜题。发送 /puzzle 现在就来一题。

## 对局网页
button-watch-live = 实时观看
button-replay = 回放
web-title = 对局 { $game }
web-moves = 着法
web-start = 开局
web-first = 初始局面
web-previous = 上一步
web-next = 下一步
web-last = 最新局面
web-live = 直播中
web-reconnecting = 正在重新连接…
web-time-left = 走棋剩余时间
web-over = 对局已结束。
web-deal = 暗子分布
web-commitment = 开局时公布的承诺值
web-check-ok = 已在你的浏览器中核对：暗子分布与盐值的 sha256 等于开局时公布的承诺值，说明暗子在第一步之前就已确定。
web-check-bad = 已在你的浏览器中核对：暗子分布与盐值的 sha256 与开局时公布的承诺值不符！
web-check-unavailable = 你的浏览器在此无法计算 sha256，请用下面的命令核对。
web-not-found = 这里没有对局 { $game }。请检查链接，或在群里发送 /games 查看。
web-bad-id = “{ $text }”不是对局编号：对局编号由四个字母或数字组成，如 g7k2。
web-too-many = 你的地址打开的直播页面太多了。请关闭一些后再试。
web-keys = 按键：← → 逐步查看，Home 和 End 跳到开局和最新局面。
web-no-page = 这里什么也没有。对局页面的地址是 /g/ 加对局编号，如 /g/g7k2；群里的棋盘消息附有链接。
web-tournament-title = 比赛 { $id }
web-tournament-summary = { $format }，{ $variant }，{ $time }。{ $state ->
        [open] 正在报名
        [arena] 竞技场进行中，至 { $end }
        [running] 第 { $round } 轮（共 { $rounds } 轮）
        [finished] 已结束
       *[other] 已取消
    } · { $count } 名棋手
web-tournament-standings = 排名
web-tournament-rank = 名次
web-tournament-player = 棋手
web-tournament-points = 积分
web-tournament-round = 第 { $round } 轮
web-tournament-board = 台次
web-tournament-red = 红方
web-tournament-black = 黑方
web-tournament-result = 结果
web-tournament-playing = 对局中：观战
web-tournament-no-rounds = 还没有编排任何一轮。
web-tournament-follows = 本页跟随比赛进程：每盘棋结束后即显示结果。
web-tournament-not-found = 这里没有比赛 { $id }。请检查链接，或在群里发送 /tournament 查询。
web-tournament-bad-id = “{ $text }”不是比赛编号：比赛编号由六个字母或数字组成，如 t4f7k2。

## Reviews (/review) and the PGN record
button-review = 复盘
command-review = 已结束对局的复盘：形势图、代价最大的着法、准确率
review-head = 对局 { $game } 复盘：{ $first } 对 { $second }
review-judged = 每一步都由引擎与该局面下的最佳着法比较评判。
review-judged-hidden = 每一步都按走棋者当时所知评判：暗子按概率计算，而不按它后来翻出的结果。
review-player = { $player }：准确率 { $accuracy }% · 大错 { $blunders } 次，错着 { $mistakes } 次，缓着 { $inaccuracies } 次
review-costly = { $number } { $player } 走了 { $played }；引擎推荐 { $best }。代价：胜率 { $drop } 个百分点（{ $judgement }）。图为 { $player } 当时所见的棋盘。
review-good = 好棋
review-inaccuracy = 缓着
review-mistake = 错着
review-blunder = 大错
review-queued = 对局 { $game } 的复盘{ $ahead ->
    [0] 马上开始
   *[other] 排在 { $ahead } 个复盘之后
}，完成后会发在这里。
review-already-queued = 对局 { $game } 已在复盘队列中（{ $ahead ->
    [0] 下一个
   *[other] 前面还有 { $ahead } 个
}），完成后会发在这里。
refuse-review-queue-full = 等待复盘的对局太多，请过几分钟再试。
review-failed = 对局 { $game } 无法复盘：棋谱无法读取。
refuse-review-nothing-finished = 这个聊天还没有结束的对局：请给出对局编号，例如 /review g7k2。
refuse-review-not-finished = 对局 { $game } 尚未结束（或已取消），暂时没有可复盘的内容。
history-pgn = 对局 { $game } 的 PGN 棋谱，可导入其他象棋软件。
history-pgn-jieqi = 对局 { $game } 的揭棋 PGN 棋谱：每步着法、每次翻开的棋子和暗子分布，可导入支持揭棋的软件（如 Fairy-Stockfish）。

## 命令选项和子命令：Discord 在斜杠命令每个选项旁显示的说明。最多 100 个字符。

option-challenge-user = 挑战谁（不填：任何人都可接受）
option-variant = 哪种棋（默认揭棋）
option-colour = 你的颜色（默认随机）
option-rules = 规则预设（默认标准）
option-captures = 揭棋：吃掉的暗子谁都看不到，直到终局（默认：吃子方可见）
option-time = 棋钟（实时对局，如 3+2）或每步用时（默认每步 1 天）
option-clock = 实时对局的棋钟（如 3+2）；不选则每步 1 天
option-challenge = 挑战的编号
option-move = h2e2、C2.5 或 炮二平五（半棋：c3 翻子，c3c4 走子）
option-game = 对局编号（见 /games）
option-level = 引擎的棋力（默认 casual）
option-rules-variant = 哪种棋
option-stats-user = 谁的（默认：你的）
option-lesson = 课程编号，或 list、restart、stop（不填：继续）
option-hour = 时间（UTC），或 off；不填则查看当前设置
option-value = 新的值
subcommand-settings-show = 查看设置
subcommand-settings-language = 本群的语言
subcommand-settings-style = 棋子的画法
subcommand-settings-orientation = 公开棋盘从哪一方看
subcommand-settings-notation = 着法的记法
subcommand-settings-board = 每步一条新消息，或编辑同一条消息
subcommand-settings-tournaments = 谁可以在本群创建比赛
subcommand-settings-timezone = 本群时区，用于比赛开始时间
choice-tournaments-admins = 仅管理员
choice-tournaments-everyone = 所有人
option-timezone = 与 UTC 的时差：UTC+8、+7、UTC-3:30、UTC
subcommand-puzzle-new = 按你的解题等级分出一道题（这里任何人都可作答）
subcommand-puzzle-daily = 管理员：每天在本频道定时出一道题
choice-variant-jieqi = 揭棋：暗子翻开再走
choice-variant-xiangqi = 象棋
choice-variant-banqi = 暗棋（半棋）：翻子棋
choice-level-novice = 新手
choice-level-casual = 休闲
choice-level-club = 俱乐部
choice-level-master = 大师
choice-colour-red = 红方
choice-colour-black = 黑方
choice-colour-random = 随机
choice-rules-standard = 标准
choice-rules-tencent = 腾讯
choice-rules-vietnam = 越南
choice-time-10m = 10 分钟
choice-time-1h = 1 小时
choice-minutes-20 = 20 分钟
choice-minutes-30 = 30 分钟
choice-minutes-45 = 45 分钟
choice-minutes-90 = 1.5 小时
choice-minutes-120 = 2 小时
choice-time-6h = 6 小时
choice-time-1d = 1 天
choice-time-3d = 3 天
choice-time-7d = 7 天
choice-time-bullet = 超快棋 1+0：每方 1 分钟，实时
choice-time-blitz = 快棋 3+2：3 分钟，每步加 2 秒，实时
choice-time-rapid = 中速 10+5：10 分钟，每步加 5 秒，实时
choice-time-classical = 慢棋 30+20：30 分钟，每步加 20 秒，实时
choice-time-byoyomi = 局时 10 分钟，读秒 30 秒，实时
choice-captures-secret = 被吃的暗子谁都看不到（secret-captures）
choice-hour-off = 关闭
choice-style-characters = 汉字（帥仕相）
choice-style-symbols = 符号
choice-orientation-red = 红方在下
choice-orientation-black = 黑方在下
choice-notation-coordinates = 坐标（h2e2）
choice-notation-chinese = 中文（炮二平五 马二进三）
choice-notation-traditional = 中文繁体（炮二平五 傌二進三）
choice-board-new = 每步一条新消息
choice-board-edit = 只编辑同一条消息

## 在网页棋盘上对弈（个人链接、Telegram 小程序）
button-open-board = 打开棋盘
button-play-on-board = 在棋盘上下棋
button-my-board = 打开我的棋盘
board-link-private = 你在对局 { $game } 中的专属棋盘：点击棋子即可走棋。此链接只属于你，持有它的人可以在 { $hours } 小时内以你的身份下这盘棋，请勿分享。
local-personal-link = { $player } 的棋盘（点按棋子走棋）：{ $link }
refuse-board-link-over = 对局 { $game } 已经结束：棋盘页面上可以回放，已无棋可下。
refuse-board-link-public = 个人棋盘链接在这里会被所有人看到：请使用“打开棋盘”按钮，或在私聊中问我。
refuse-board-link-off = 这个机器人没有开启网页棋盘对弈（运营者未设置 PUBLIC_URL 和 WEB_SECRET）。请在这里用 /move 走棋。
web-known = 第 { $number } 步 { $move }：你吃掉的暗子是{ $piece }。
web-known-title = 只有你知道
web-you = 你
web-your-move = 轮到你走：先点棋子，再点目标位置。
web-their-move = 轮到对手走棋。
web-resign-sure = 确定认输吗？对局将就此结束。
web-cancel = 取消
web-sending = 发送中…
web-offline = 这步棋没有送达机器人（没有网络连接）。再点一次即可重试。
web-too-fast = 操作太频繁：请等几秒再试。
web-confirm-moves = 每步棋发送前先确认
web-confirm-play = 走这步
web-signed-out = 这个棋盘链接已失效（已过期，或属于其他对局或其他人）。请用棋盘下的按钮或 /board 获取新链接。现在你以观众身份观看。
web-not-playing = 你不是这盘棋的棋手：你正在观战。
web-unauthorized = 你的棋盘链接或 Telegram 登录在这里无效。请从聊天中重新打开棋盘。
web-bad-action = 棋盘发送了机器人无法理解的内容：{ $reason }

## The Discord Activity (the board inside Discord)
button-play-in-discord = 在 Discord 里下棋
activity-title = 在 Discord 里下揭棋
activity-signing-in = 正在用 Discord 登录……
activity-sign-in-failed = Discord 没有让你登录。请关闭活动后重新打开。
activity-outside = 这是机器人的 Discord 活动：请在 Discord 里打开（应用启动器、/launch，或棋盘下方的“在 Discord 里下棋”）。
activity-signed-in-as = 已登录：
activity-your-games = 你的对局
activity-channel-games = 本频道的对局
activity-finished-games = 本频道已结束的对局
activity-no-games = 这里还没有对局：点“新对局”开始一局。
activity-play = 下棋
activity-watch = 观战
activity-replay = 回放
activity-your-turn = 轮到你走
activity-new-game = 新对局
activity-opponent = 对手
activity-the-bot = 机器人
activity-variant = 棋种
activity-send = 发起挑战
activity-sent = 挑战已发到频道里，附有“接受”和“拒绝”按钮。对方接受后，你的棋盘会在这里打开。
activity-back = ← 对局列表
activity-command = 在 Discord 里打开棋盘：本频道的对局，你的排在最前

## Tournaments (/tournament)
tournament-created = 比赛 { $id }（{ $organiser } 创建）：{ $format }，{ $variant }，{ $time }。用 /tournament join 报名。
tournament-format-swiss = 瑞士制 { $rounds } 轮
tournament-format-round-robin = 循环赛{ $cycles ->
        [2] （双循环）
       *[other] {""}
    }
tournament-joined = { $player } 报名参赛（共 { $count } 人）。
tournament-joined-late = { $player } 中途报名（共 { $count } 人）：错过的轮次不计分，从第 { $round } 轮起参加编排。
tournament-left = { $player } 退出比赛：之后不再编排（已有成绩保留）。
tournament-cancelled = 比赛 { $id } 已被 { $player } 取消。已开始的对局按普通对局下完。
tournament-status = 比赛 { $id }：{ $format }，{ $variant }，{ $time }。{ $state ->
        [open] 正在报名
        [arena] 竞技场进行中，至 { $end }
        [running] 第 { $round } 轮（共 { $rounds } 轮）
        [finished] 已结束
       *[other] 已取消
    }。{ $count ->
        [0] 还没有棋手。
       *[other] { $count } 名棋手：{ $players }
    }
tournament-pairings = 第 { $round } 轮（共 { $rounds } 轮）对阵。每盘棋都在这里像普通对局一样下；私信会告诉你执哪一方。
tournament-board = 第 { $board } 台：{ $first }（红）– { $second }（黑），对局 { $game }
tournament-bye-point = { $player } 轮空（得 1 分）。
tournament-bye-half = { $player } 轮空半分。
tournament-bye-zero = { $player } 本轮不参加（不得分）。
tournament-standings-title = 比赛 { $id } · 第 { $round } 轮（共 { $rounds } 轮）
tournament-standings-after = 第 { $round } 轮（共 { $rounds } 轮）后的排名：
tournament-standings-now = 排名，第 { $round } 轮（共 { $rounds } 轮）：
tournament-finished = 比赛结束。{ $count ->
        [0] 没有一盘棋在时限内结束：无人获胜。
        [one] 冠军：{ $winners }！
       *[other] 并列第一：{ $winners }！
    }
tournament-stopped = 比赛到此结束：{ $reason ->
        [too-few] 剩下可编排的棋手不足两人。
        [no-legal-pairing] 下一轮没有符合规则的编排（会有棋手再次相遇）。
       *[other] 下一轮无法编排。
    }
tournament-no-pairing = 下一轮无法编排。
tournament-trf = 比赛 { $id } 的 FIDE TRF-16 文件。
tournament-page = 对阵、排名和每盘棋的直播：{ $url }
refuse-tournament-word = “{ $word }”不是比赛命令。用法：{ $usage }
refuse-tournament-rounds = 无法进行“{ $rounds }”轮：瑞士制为 1 到 { $max } 轮。
refuse-tournament-option = “{ $option }”不是比赛选项。用法：{ $usage }
refuse-tournament-private = 比赛在群聊里进行，棋手都在那里。请在群里发送 /tournament。
refuse-tournament-admins = 只有本群管理员可以创建比赛（Discord：管理服务器；Telegram：群管理员）。管理员可以让所有人都能创建：/settings tournaments everyone。
refuse-tournament-exists = 本群已有比赛 { $id }：/tournament 可查看。一个群同时只进行一场比赛。
refuse-no-tournament = 本群没有比赛。管理员可以创建：{ $usage }
refuse-tournament-joined = 你已经报名了。
refuse-tournament-withdrawn = 你已退出这场比赛，不能再报名。
refuse-tournament-too-late = 报名太晚了：所有轮次都已编排（循环赛不接受中途报名）。
refuse-tournament-full = 比赛人数已满（{ $max } 人）。
refuse-tournament-elsewhere = 你正在另一个群参加比赛 { $id }：一次只能参加一场比赛，这样你不会同时下两盘比赛对局。
refuse-tournament-not-in = 你没有参加这场比赛。
refuse-tournament-round-robin-withdraw = 循环赛开始后对阵已固定：请认输对局，而不是退出。
refuse-tournament-organiser = 只有创建者 { $organiser } 或群管理员可以这样做。
refuse-tournament-started = 比赛已经开始了。
refuse-tournament-too-few-swiss = { $rounds } 轮的瑞士制至少需要 { $needed } 名棋手，才不会重复相遇；现在有 { $count } 人报名。
refuse-tournament-too-few = 比赛至少需要 2 名棋手；现在有 { $count } 人报名。
refuse-tournament-trf-swiss = TRF-16 是瑞士制比赛的格式，本比赛不是：/tournament standings 可查看排名。
command-tournament = 本群比赛：创建、报名、开始、排名
subcommand-tournament-status = 本群比赛的进展
subcommand-tournament-swiss = 管理员：创建瑞士制比赛
subcommand-tournament-round-robin = 管理员：创建循环赛（最多 12 人）
subcommand-tournament-arena = 管理员：创建竞技场（限时进行，每局结束即再配对）
subcommand-tournament-join = 报名参加本群比赛
subcommand-tournament-leave = 在比赛开始前退出
subcommand-tournament-start = 创建者或管理员：开始比赛并编排第 1 轮
subcommand-tournament-standings = 排名表
subcommand-tournament-withdraw = 不再参加编排（已有成绩保留）
subcommand-tournament-trf = 瑞士制比赛的 TRF-16 文件
subcommand-tournament-cancel = 创建者或管理员：取消比赛
option-rounds = 轮数，1 到 30（不填为 5）
option-cycles = 单循环（每人相遇一次）或双循环（两次，交换先后）
option-minutes = 分钟数（不填为 60）
choice-cycles-single = 单循环
choice-cycles-double = 双循环
refuse-tournament-over = 比赛 { $id } 已结束：仍可用 /tournament standings 和 /tournament trf 查看，可以创建新比赛。
button-tournament-join = 报名
button-tournament-leave = 退出
tournament-starts-at = 将于 { $at }（{ $left }后）自动开始；{ $rated ->
        [unrated] 对局不计等级分。
       *[rated] 对局按其用时类别计等级分。
    }
tournament-starts-by-hand = { $organiser } 或管理员用 /tournament start 开始；{ $rated ->
        [unrated] 对局不计等级分。
       *[rated] 对局按其用时类别计等级分。
    }
tournament-not-started = 比赛 { $id } 未能按时开始：{ $reason } { $organiser } 或管理员可用 /tournament start 开始，或用 /tournament cancel 取消。
refuse-tournament-start-time = “{ $time }”不是可用的开始时间：请给出本群时区的时刻（at 20:00；/settings 可查看时区）或延迟（in 30m、in 2h），最多 { $days } 天之后。
tournament-bye-asked = { $player } 在第 { $round } 轮轮空，得半分。
refuse-tournament-bye-swiss = 只有瑞士制可以申请半分轮空：循环赛的对阵是固定的，竞技场没有轮次。
refuse-tournament-bye-twice = 你在本比赛中已经用过半分轮空（每人一次）。
refuse-tournament-bye-late = 所有轮次都已编排：没有下一轮可以轮空。
tournament-forfeit = { $player } 在对局 { $game } 中没有走第一步：判负（弃权，{ $count ->
       *[other] 第 { $count } 次
    }）。
tournament-withdrawn-absent = 你在比赛 { $id } 中已有 { $count } 局因未走第一步而判负，因此退出比赛：不再编排对局。已有成绩保留。
tournament-standings-final = 比赛已结束，排名不会再变：上面的最终公告附有排名图。第 { $round } 轮，共 { $rounds } 轮：
tournament-format-arena = 竞技场 { $minutes } 分钟
refuse-arena-minutes = 无法举办“{ $minutes }”分钟的竞技场：竞技场为 1 到 { $max } 分钟。
refuse-arena-over = 竞技场已结束，不再开始新的对局。最终排名见最后一条公告。
arena-started = 竞技场 { $id } 开始了：{ $minutes } 分钟，至 { $end }。你的对局结束后，会立即与正在等待的人再次配对；胜 2 分，和 1 分，连胜两局后分数翻倍 🔥。随时可用 /tournament join 加入。
arena-joined = { $player } 加入了竞技场（{ $count } 人），与空闲的棋手配对：现在有人空闲就现在，否则等一盘棋结束。
arena-back = { $player } 回到竞技场：从现在起重新配对（已得分数保留）。
arena-pairings = 竞技场 { $id } 新对局（私信会告诉你执哪一方）：
arena-game = { $first }（红）– { $second }（黑），对局 { $game }
arena-ended-playing = 时间到。仍在进行的 { $count } 局不计分（作为普通对局下完）。
arena-withdrawn-absent = 你在竞技场 { $id } 的对局 { $game } 中未走第一步，判负，因此不再为你配对。用 /tournament join 重新加入即可继续。
arena-standings-title = 竞技场 { $id } · { $state ->
        [over] 最终
       *[running] 至 { $end }
    }
arena-standings-now = 竞技场排名（积分，🔥 为连胜：下一局分数翻倍），至 { $end }：
arena-standings-final = 竞技场已结束，排名不会再变：上面的最终公告附有排名图。
arena-standings-open = 竞技场尚未开始：还没有对局，也没有排名。
web-arena-games = 对局
subcommand-tournament-bye = 下一轮轮空得半分（瑞士制，一次）
option-start = 开始时间：20:00（本群时区）或 in 30m；不填则手动开始
option-rated = 计等级分（按对局用时类别，默认）或不计
choice-rated = 计等级分
choice-unrated = 不计等级分
