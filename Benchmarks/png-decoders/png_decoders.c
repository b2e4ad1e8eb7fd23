// The PNG decoders measured for issue 42, on one file: libpng as Easel configured it, libpng
// with CRC errors ignored, libspng with and without its checks, and the first version of
// Easel's own path (ISA-L's inflate, rows unfiltered in C). Best and mean of 15 decodes each.
//
//   cc -O2 png_decoders.c -o png-decoders -lpng16 -lspng -lisal   # Debian: libspng-dev
//   ./png-decoders out/bench-cache/real-cards-2/00000001-03E8-4000-8000-0000000002EE
//
// The figures are in Benchmarks/results/2026-11-28-real-cards.md. Easel's reader as shipped
// is Sources/CEaselPNG/easel_png_fast_read.c; this file only measures.
#include <png.h>
#include <spng.h>
#include <isa-l/igzip_lib.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <time.h>
static double now_ms(void){struct timespec t;clock_gettime(CLOCK_MONOTONIC,&t);return t.tv_sec*1e3+t.tv_nsec/1e6;}
typedef struct { const uint8_t *p; size_t n, at; } src_t;
static void rd(png_structp png, png_bytep out, png_size_t n){ src_t *s=png_get_io_ptr(png); if(s->at+n>s->n) png_error(png,"eof"); memcpy(out,s->p+s->at,n); s->at+=n; }
static int decode_libpng(const uint8_t *bytes, size_t n, uint8_t *dst, int relaxed){
  png_structp png=png_create_read_struct(PNG_LIBPNG_VER_STRING,0,0,0); png_infop info=png_create_info_struct(png);
  if(setjmp(png_jmpbuf(png))){png_destroy_read_struct(&png,&info,0);return -1;}
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
  if(relaxed) png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  src_t s={bytes,n,0}; png_set_read_fn(png,&s,rd); png_read_info(png,info);
  png_uint_32 w=png_get_image_width(png,info), h=png_get_image_height(png,info);
  png_set_expand(png); png_set_bgr(png); png_read_update_info(png,info);
  png_bytep *rows=malloc(sizeof(png_bytep)*h); for(png_uint_32 y=0;y<h;y++) rows[y]=dst+(size_t)y*w*4;
  png_read_image(png,rows); free(rows); png_destroy_read_struct(&png,&info,0); return 0;
}
static int decode_spng(const uint8_t *bytes, size_t n, uint8_t *dst, size_t size, int relaxed){
  spng_ctx *ctx=spng_ctx_new(relaxed?SPNG_CTX_IGNORE_ADLER32:0); 
  if(relaxed) spng_set_crc_action(ctx, SPNG_CRC_USE, SPNG_CRC_USE);
  spng_set_png_buffer(ctx,bytes,n);
  int r=spng_decode_image(ctx,dst,size,SPNG_FMT_RGBA8,0); spng_ctx_free(ctx); return r;
}
static inline uint8_t paeth(int a,int b,int c){int p=a+b-c,pa=abs(p-a),pb=abs(p-b),pc=abs(p-c);return (pa<=pb&&pa<=pc)?a:(pb<=pc)?b:c;}
static int decode_own(const uint8_t *bytes,size_t n,uint8_t *dst, uint8_t *raw, size_t rawsize){
  // chunks
  size_t at=8; uint32_t w=0,h=0; struct inflate_state st; isal_inflate_init(&st); st.crc_flag=ISAL_ZLIB_NO_HDR_VER;
  st.next_out=raw; st.avail_out=rawsize; int first=1;
  while(at+12<=n){ uint32_t len=(bytes[at]<<24)|(bytes[at+1]<<16)|(bytes[at+2]<<8)|bytes[at+3]; const uint8_t *t=bytes+at+4;
    if(!memcmp(t,"IHDR",4)){w=(bytes[at+8]<<24)|(bytes[at+9]<<16)|(bytes[at+10]<<8)|bytes[at+11]; h=(bytes[at+12]<<24)|(bytes[at+13]<<16)|(bytes[at+14]<<8)|bytes[at+15];}
    else if(!memcmp(t,"IDAT",4)){ const uint8_t *d=bytes+at+8; uint32_t dl=len; if(first){ d+=2; dl-=2; first=0; st.crc_flag=0;} st.next_in=(uint8_t*)d; st.avail_in=dl; if(isal_inflate(&st)!=ISAL_DECOMP_OK) return -2; }
    else if(!memcmp(t,"IEND",4)) break;
    at+=12+len; }
  size_t stride=(size_t)w*4+1; 
  uint8_t *prev=NULL;
  for(uint32_t y=0;y<h;y++){ uint8_t *row=raw+y*stride; int f=row[0]; uint8_t *cur=row+1; size_t L=(size_t)w*4;
    switch(f){case 0:break; case 1: for(size_t i=4;i<L;i++) cur[i]+=cur[i-4]; break;
      case 2: if(prev) for(size_t i=0;i<L;i++) cur[i]+=prev[i]; break;
      case 3: for(size_t i=0;i<L;i++){int a=i>=4?cur[i-4]:0,b=prev?prev[i]:0; cur[i]+=(a+b)>>1;} break;
      case 4: for(size_t i=0;i<L;i++){int a=i>=4?cur[i-4]:0,b=prev?prev[i]:0,c=(prev&&i>=4)?prev[i-4]:0; cur[i]+=paeth(a,b,c);} break;}
    uint8_t *o=dst+(size_t)y*w*4; for(uint32_t x=0;x<w;x++){o[4*x]=cur[4*x+2];o[4*x+1]=cur[4*x+1];o[4*x+2]=cur[4*x];o[4*x+3]=cur[4*x+3];}
    prev=cur; }
  return 0;
}
int main(int argc,char**argv){ FILE*f=fopen(argv[1],"rb"); fseek(f,0,SEEK_END); long n=ftell(f); fseek(f,0,SEEK_SET); uint8_t*b=malloc(n); fread(b,1,n,f); fclose(f);
  int W=0,H=0; {spng_ctx*c=spng_ctx_new(0);spng_set_png_buffer(c,b,n);struct spng_ihdr ih;spng_get_ihdr(c,&ih);W=ih.width;H=ih.height;spng_ctx_free(c);}
  size_t size=(size_t)W*H*4; uint8_t*dst=malloc(size), *raw=malloc((size_t)(W*4+1)*H);
  const char*names[]={"libpng (as Easel)","libpng crc relaxed","libspng","libspng relaxed","own+isal"};
  for(int m=0;m<5;m++){ double best=1e9,sum=0; int R=15; for(int i=0;i<R;i++){ double t=now_ms(); int r;
      if(m<2) r=decode_libpng(b,n,dst,m==1); else if(m<4) r=decode_spng(b,n,dst,size,m==3); else r=decode_own(b,n,dst,raw,(size_t)(W*4+1)*H);
      t=now_ms()-t; if(r) {printf("%s failed %d\n",names[m],r);break;} if(t<best)best=t; sum+=t; }
    printf("%-22s best %6.2f ms  mean %6.2f ms\n",names[m],best,sum/R); }
}
